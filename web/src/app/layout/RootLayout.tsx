import { Suspense, useEffect } from 'react';
import { Outlet, useLocation, useNavigate } from 'react-router';
import { useAuth } from '@/lib/auth';
import { setMfaHandlers } from '@/lib/mfaHandlers';
import { ErrorBoundary } from '../ErrorBoundary';
import { Footer } from './Footer';
import { Header } from './Header';

/** Router state that asks the shell to open the sign-in dialog (set by the checkout guard). */
export interface OpenSignInState {
  openSignIn: true;
}

function wantsSignIn(state: unknown): state is OpenSignInState {
  return typeof state === 'object' && state !== null && (state as { openSignIn?: unknown }).openSignIn === true;
}

/** `footer={false}`: the build's shell of every page (app/prerender.tsx), shown until the page renders. */
export function RootLayout({ footer = true }: { footer?: boolean }) {
  const location = useLocation();
  const navigate = useNavigate();
  const { openSignIn, openMfa } = useAuth();

  // Every route change starts at the top of the page.
  useEffect(() => {
    window.scrollTo(0, 0);
  }, [location.pathname]);

  // A signed-out visitor sent here from /checkout/{slug} gets the sign-in dialog; the flag is
  // cleared so that reloading or going back does not open it again.
  useEffect(() => {
    if (!wantsSignIn(location.state)) return;
    openSignIn();
    void navigate(`${location.pathname}${location.search}${location.hash}`, { replace: true, state: null });
  }, [location, navigate, openSignIn]);

  // The server's two-factor refusals of API calls: enrol first, or pass the code step.
  useEffect(() => {
    setMfaHandlers({
      enrolmentRequired: () => void navigate('/admin/mfa'),
      codeRequired: openMfa,
    });
    return () => setMfaHandlers(null);
  }, [navigate, openMfa]);

  return (
    <div className="flex min-h-screen flex-col">
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:fixed focus:left-4 focus:top-4 focus:z-50 focus:rounded-lg focus:bg-white focus:px-4 focus:py-2 focus:shadow-lg"
      >
        Skip to main content
      </a>
      <Header />
      <main id="main" tabIndex={-1} className="flex-1 focus:outline-none">
        {/* A page that fails to render or load shows a message here, with the header and footer. */}
        <ErrorBoundary at={location.pathname}>
          {/* Pages loaded on first use (the admin screens) show this while their code arrives. */}
          <Suspense
            fallback={
              <p className="mx-auto max-w-6xl px-4 py-24 text-center text-slate-500" role="status">
                Loading ...
              </p>
            }
          >
            <Outlet />
          </Suspense>
        </ErrorBoundary>
      </main>
      {footer && <Footer />}
    </div>
  );
}
