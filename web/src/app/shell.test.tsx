// The app's own route table (shell.tsx): '/' and product pages in the first chunk, every other
// path through the lazily loaded table of routes.tsx, and preloadPage so that a first load of a
// public page renders in one step, with no 'Loading ...' in between.
import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';
import { fixtureProducts } from '@/dev/fixtures';
import { productKeys } from '@/features/storefront';
import { createTestQueryClient, jsonResponse, mockFetch } from '@/test/utils';
import { preloadPage, shellRoutes } from './shell';

function renderShell(path: string) {
  const queryClient = createTestQueryClient();
  queryClient.setQueryData(productKeys.list(), fixtureProducts);
  const router = createMemoryRouter(shellRoutes, { initialEntries: [path] });
  render(
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return router;
}

describe('shell routes', () => {
  it('renders the landing page from the first chunk', () => {
    mockFetch(() => jsonResponse(500, {}));
    renderShell('/');
    expect(screen.getByRole('heading', { level: 1, name: 'Your serial terminal, in your pocket' })).toBeInTheDocument();
  });

  it('renders a preloaded /terms at once: no Loading step to shift the page', async () => {
    mockFetch(() => jsonResponse(500, {}));
    await preloadPage('/terms');
    renderShell('/terms');
    expect(screen.getByRole('heading', { level: 1, name: 'Terms and Conditions' })).toBeInTheDocument();
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
  });

  it('renders a preloaded /privacy/ (trailing slash) at once', async () => {
    mockFetch(() => jsonResponse(500, {}));
    await preloadPage('/privacy/');
    renderShell('/privacy');
    expect(screen.getByRole('heading', { level: 1, name: 'Privacy Policy' })).toBeInTheDocument();
  });

  it('loads the rest of the route table for other paths: a guarded page sends a visitor home, an unknown one is not found', async () => {
    mockFetch(() => jsonResponse(500, {}));
    const router = renderShell('/dashboard');
    expect(await screen.findByRole('heading', { level: 1, name: 'Your serial terminal, in your pocket' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/');
  });

  it('shows the not-found page for an unknown path', async () => {
    mockFetch(() => jsonResponse(500, {}));
    renderShell('/no-such-page');
    expect(await screen.findByRole('heading', { level: 1, name: 'Page Not Found' })).toBeInTheDocument();
  });
});
