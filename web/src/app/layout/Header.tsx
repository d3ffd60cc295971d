import { Suspense, useRef, useState } from 'react';
import { Link, useLocation } from 'react-router';
import { LogoMark } from '@/components/Logo';
import { EnterpriseNavItem } from '@/features/enterprise';
import { useAuth } from '@/lib/auth';
import { COMPANY_NAME } from '@/lib/company';

const navLinkClass = ({ isActive }: { isActive: boolean }) =>
  `rounded-lg px-3 py-2 text-sm font-medium ${
    isActive ? 'bg-slate-100 text-slate-900' : 'text-slate-600 hover:bg-slate-100 hover:text-slate-900'
  }`;

/**
 * A header link, marked (aria-current, its look) on its page and, unless `end`, the pages under it:
 * what react-router's NavLink does here, in fewer bytes of the first chunk (docs/performance.md).
 */
function HeaderLink({ to, end = false, children }: { to: string; end?: boolean; children: string }) {
  const { pathname } = useLocation();
  const isActive = pathname === to || (!end && pathname.startsWith(`${to}/`));
  return (
    <Link to={to} className={navLinkClass({ isActive })} aria-current={isActive ? 'page' : undefined}>
      {children}
    </Link>
  );
}

/** Below 640 px the links fold behind "Menu": Escape closes it (focus back on the button), as does any choice. */
export function Header() {
  const { user, isAdmin, loading, openSignIn, signOut } = useAuth();
  const [open, setOpen] = useState(false);
  const menuButton = useRef<HTMLButtonElement>(null);
  return (
    <header className="sticky top-0 z-40 border-b border-slate-200 bg-white/95 backdrop-blur">
      <div
        className="mx-auto flex min-h-16 max-w-6xl flex-wrap items-center justify-between gap-x-4 gap-y-2 px-4 py-2 sm:px-6"
        onKeyDown={(event) => {
          if (event.key !== 'Escape' || !open) return;
          setOpen(false);
          menuButton.current?.focus();
        }}
      >
        <Link to="/" className="flex items-center gap-2 rounded-lg text-lg font-bold tracking-tight text-slate-900">
          <LogoMark />
          <span>{COMPANY_NAME}</span>
        </Link>
        <button
          ref={menuButton}
          type="button"
          className="btn-secondary sm:hidden"
          aria-expanded={open}
          aria-controls="main-menu"
          onClick={() => setOpen(!open)}
        >
          Menu
        </button>
        <nav id="main-menu" aria-label="Main" className={`${open ? '' : 'hidden'} w-full sm:block sm:w-auto`} onClick={() => setOpen(false)}>
          <ul className="flex flex-col gap-1 sm:flex-row sm:flex-wrap sm:items-center">
            {/* While the stored session is restored: a blank the height of the buttons, so neither
                Sign In flashes for a signed-in visitor nor the header changes height. */}
            {loading ? (
              <li aria-hidden="true" data-testid="session-placeholder" className="h-9 w-24" />
            ) : user ? (
              <>
                <li>
                  <HeaderLink to="/dashboard">Dashboard</HeaderLink>
                </li>
                {/* Only for people who administer an enterprise account (the server says, with one call). */}
                <Suspense fallback={null}>
                  <EnterpriseNavItem className={navLinkClass} />
                </Suspense>
                <li>
                  <HeaderLink to="/test-subscription">Test Subscription</HeaderLink>
                </li>
                {isAdmin ? (
                  <>
                    <li>
                      <HeaderLink to="/admin" end>Admin</HeaderLink>
                    </li>
                    <li>
                      <HeaderLink to="/admin/mfa">MFA</HeaderLink>
                    </li>
                  </>
                ) : null}
                <li>
                  <HeaderLink to="/account">Account</HeaderLink>
                </li>
                <li>
                  <button type="button" className="btn-secondary ml-1" onClick={() => void signOut()}>
                    Sign Out
                  </button>
                </li>
              </>
            ) : (
              <li>
                <button type="button" className="btn-primary" onClick={openSignIn}>
                  Sign In
                </button>
              </li>
            )}
          </ul>
        </nav>
      </div>
    </header>
  );
}
