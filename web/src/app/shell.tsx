// What the app renders (App.tsx): the layout with the two pages a visitor arrives on, '/' and
// '/product/:slug', in the first chunk; every other path loads the rest of the route table
// (routes.tsx: pages.json, the guards, the feature pages, not-found) as a chunk of its own.
// main.tsx calls preloadPage first, so a first load of any page renders in one step.
import { useRoutes, type RouteObject } from 'react-router';
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
      { path: '*', element: <OtherPages /> },
    ],
  },
];

/**
 * Starts loading the code the page at `pathname` needs beyond the first chunk (the route table,
 * and a legal page's own chunk); main.tsx renders once it is there. Pages behind sign-in load on
 * render, behind Suspense.
 */
export function preloadPage(pathname: string): Promise<void> {
  const path = pathname.length > 1 ? pathname.replace(/\/$/, '') : pathname;
  if (path === '/' || /^\/product\/[^/]+$/.test(path)) return Promise.resolve();
  return OtherPages.preload()
    .then(loadRoutes)
    .then((routes) => routes.preloadPage(path));
}
