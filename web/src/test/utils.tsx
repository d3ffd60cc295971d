// Test helpers: a fresh query client, a memory router and a scripted fetch.
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import type { ReactElement, ReactNode } from 'react';
import { createMemoryRouter, RouterProvider, useLocation, type RouteObject } from 'react-router';
import { vi } from 'vitest';
import { AuthProvider } from '@/features/auth';
import { useAuth } from '@/lib/auth';

export function createTestQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { retry: false, staleTime: Infinity, gcTime: Infinity },
      mutations: { retry: false },
    },
  });
}

/** Shows where the router ended up, for assertions on navigation. */
export function LocationProbe() {
  const location = useLocation();
  return (
    <output data-testid="location" data-state={JSON.stringify(location.state ?? null)}>
      {location.pathname}
    </output>
  );
}

interface RenderRouteOptions {
  path: string;
  initialEntry: string;
  queryClient?: QueryClient;
  wrapper?: (children: ReactNode) => ReactElement;
}

/** Renders `element` at `path` inside a memory router; any other path renders a LocationProbe. */
export function renderRoute(element: ReactElement, { path, initialEntry, queryClient = createTestQueryClient(), wrapper }: RenderRouteOptions) {
  const routes: RouteObject[] = [
    { path, element },
    { path: '*', element: <LocationProbe /> },
  ];
  const router = createMemoryRouter(routes, { initialEntries: [initialEntry] });
  const tree = (
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>
  );
  return { router, queryClient, ...render(wrapper ? wrapper(tree) : tree) };
}

export function jsonResponse(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

type FetchHandler = (url: string, init: RequestInit | undefined) => Response | Promise<Response>;

/** Replaces global fetch with `handler`; returns the mock so tests can inspect its calls. */
export function mockFetch(handler: FetchHandler) {
  const fetchMock = vi.fn((input: RequestInfo | URL, init?: RequestInit) =>
    Promise.resolve(handler(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url, init)),
  );
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

/** A promise with its resolve function, for holding a request open. */
export function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

/** Shows the auth seam's state and calls its actions, for tests of the real AuthProvider. */
export function AuthProbe() {
  const { user, isAdmin, loading, needsMfa, openSignIn, openMfa, signOut } = useAuth();
  return (
    <div>
      <output data-testid="auth-state">
        {loading ? 'loading' : user ? `signed in as ${user.email}${user.fullName ? ` (${user.fullName})` : ''}` : 'signed out'}
        {isAdmin ? ' [admin]' : ''}
        {needsMfa ? ' [needs mfa]' : ''}
      </output>
      <button type="button" onClick={openSignIn}>
        Open sign in
      </button>
      <button type="button" onClick={openMfa}>
        Open code step
      </button>
      <button type="button" onClick={() => void signOut()}>
        Probe sign out
      </button>
    </div>
  );
}

/** Renders `ui` (an AuthProbe by default) inside the real AuthProvider and a fresh query client. */
export function renderWithAuth(ui: ReactElement = <AuthProbe />, queryClient = createTestQueryClient()) {
  return {
    queryClient,
    ...render(
      <QueryClientProvider client={queryClient}>
        <AuthProvider>{ui}</AuthProvider>
      </QueryClientProvider>,
    ),
  };
}

type ApiHandler = (url: URL, init: RequestInit | undefined) => Response | Promise<Response> | undefined;

/** Routes fetch calls to `handler` (by parsed URL); anything it does not answer is a 404. */
export function mockApi(handler: ApiHandler) {
  return mockFetch((url, init) => handler(new URL(url, 'http://localhost'), init) ?? jsonResponse(404, { code: 'not_found', message: 'Not found' }));
}
