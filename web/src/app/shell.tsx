// What the app renders (App.tsx): the layout with the two pages a visitor arrives on, '/' and
// '/product/:slug', in the first chunk, and the legal pages with a chunk each of their own; every
// other path loads the rest of the route table (routes.tsx: pages.json, the guards, the feature
// pages, not-found) as a chunk of its own, which a visitor reading the terms does not need.
// main.tsx calls preloadPage first, so a first load of any page renders in one step.
import { useRoutes, type RouteObject } from 'react-router';
import { PrivacyPage, TermsPage } from '@/features/legal';
import { ProductPage } from '@/features/storefront';
import { lazyPage } from '@/lib/lazyPage';
import { RootLayout } from './layout/RootLayout';
import { LandingRoute } from './routes/LandingRoute';

const loadRoutes = () => import('./routes');

const OtherPages = lazyPage(() =>
  loadRoutes().then(({ pageRoutes }) =>
    function OtherPages() {
      return useRoutes(pageRoutes);
    },
  ),
);

export const shellRoutes: RouteObject[] = [
  {
    element: <RootLayout />,
    children: [
      { index: true, element: <LandingRoute /> },
      { path: 'product/:slug', element: <ProductPage /> },
      // Also in routes.tsx (pages.json lists them): matched here first, without that chunk.
      { path: 'terms', element: <TermsPage /> },
      { path: 'privacy', element: <PrivacyPage /> },
      { path: '*', element: <OtherPages /> },
    ],
  },
];

/**
 * Starts loading the code the page at `pathname` needs beyond the first chunk (a legal page's own
 * chunk, or the route table); main.tsx renders once it is there. Pages behind sign-in load on
 * render, behind Suspense.
 */
export function preloadPage(pathname: string): Promise<void> {
  const path = pathname.length > 1 ? pathname.replace(/\/$/, '') : pathname;
  if (path === '/' || /^\/product\/[^/]+$/.test(path)) return Promise.resolve();
  if (path === '/terms') return TermsPage.preload();
  if (path === '/privacy') return PrivacyPage.preload();
  return OtherPages.preload();
}
