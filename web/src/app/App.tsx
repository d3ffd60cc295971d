import type { QueryClient } from '@tanstack/react-query';
import { BrowserRouter, useRoutes } from 'react-router';
import { ErrorBoundary } from './ErrorBoundary';
import { AppProviders } from './providers';
import { shellRoutes } from './shell';

function AppRoutes() {
  return useRoutes(shellRoutes);
}

/**
 * The app in declarative router mode (BrowserRouter + useRoutes over shell.tsx, which loads the
 * table of routes.tsx for pages other than '/' and product pages): the data router's loaders and
 * actions are unused here and
 * would add about 14 KB of compressed JavaScript to every page (docs/performance.md). The root
 * error boundary catches what the page's own (RootLayout) does not: the providers, the header.
 * (The TEST PAYMENTS ribbon is the server's, in the page's HTML: server/src/seo/head.h.)
 */
export function App({ queryClient }: { queryClient: QueryClient }) {
  return (
    <ErrorBoundary>
      <AppProviders queryClient={queryClient}>
        <BrowserRouter>
          <AppRoutes />
        </BrowserRouter>
      </AppProviders>
    </ErrorBoundary>
  );
}
