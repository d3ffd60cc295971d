// What the build writes into the HTML before any script has run (scripts/prerender.mjs renders it
// in Node with react-dom/server; it is never part of the app's bundle):
//   * every page's HTML holds the shell: the header as it looks while the session is restored, and
//     an empty main, so the first paint waits for the stylesheet alone, not for the JavaScript;
//   * the static pages (/terms, /privacy) are written whole, and their first load shows that HTML
//     without loading their code (lib/staticPage.tsx).
// The app's first render replaces it all in one commit (main.tsx): nothing moves that was shown.
import type { ReactNode } from 'react';
import { renderToString } from 'react-dom/server';
import { MemoryRouter, Route, Routes } from 'react-router';
import { PrivacyPage } from '@/features/legal/PrivacyPage';
import { TermsPage } from '@/features/legal/TermsPage';
import { AuthContext, signedOut, type AuthContextValue } from '@/lib/auth/context';
import { StaticPageFrame } from '@/lib/staticPage';
import { RootLayout } from './layout/RootLayout';

/** The session is unknown until the browser reads it: the header shows its placeholder. */
const restoringSession: AuthContextValue = { ...signedOut, loading: true };

/** The pages the build writes whole, by path (the server sends web/dist/pages/<path>.html for them). */
export const STATIC_PAGES = { '/terms': TermsPage, '/privacy': PrivacyPage } as const;

function render(path: string, page: ReactNode, footer: boolean): string {
  return renderToString(
    <MemoryRouter initialEntries={[path]}>
      <AuthContext.Provider value={restoringSession}>
        <Routes>
          <Route element={<RootLayout footer={footer} />}>
            <Route path="*" element={page} />
          </Route>
        </Routes>
      </AuthContext.Provider>
    </MemoryRouter>,
  );
}

/** The markup of `#root` in index.html: the header and an empty main (no footer, which would show at the top). */
export function renderShell(): string {
  return render('/', null, false);
}

/** The markup of `#root` for a static page: the layout with the page in its frame. */
export function renderStaticPage(path: keyof typeof STATIC_PAGES): string {
  const Page = STATIC_PAGES[path];
  return render(
    path,
    <StaticPageFrame path={path}>
      <Page />
    </StaticPageFrame>,
    true,
  );
}
