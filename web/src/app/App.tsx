import type { QueryClient } from '@tanstack/react-query';
import { BrowserRouter, useRoutes } from 'react-router';
import { AppProviders } from './providers';
import { routes } from './routes';

function AppRoutes() {
  return useRoutes(routes);
}

/**
 * The app in declarative router mode (BrowserRouter + useRoutes over the same route table the
 * tests give createMemoryRouter): the data router's loaders and actions are unused here and
 * would add about 14 KB of compressed JavaScript to every page (docs/performance.md).
 */
export function App({ queryClient }: { queryClient: QueryClient }) {
  return (
    <AppProviders queryClient={queryClient}>
      <BrowserRouter>
        <AppRoutes />
      </BrowserRouter>
    </AppProviders>
  );
}
