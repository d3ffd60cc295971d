import { QueryClientProvider } from '@tanstack/react-query';
import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { fixtureProduct, fixtureProducts } from '@/dev/fixtures';
import { AuthContext, type AuthContextValue } from '@/lib/auth';
import { productKeys } from '@/features/storefront';
import { apiFetch } from '@/lib/api';
import { authClient } from '@/lib/authClient';
import { fakeAuth } from '@/test/fakeAuthClient';
import { createTestQueryClient, jsonResponse, mockFetch } from '@/test/utils';
import { ContactSalesProvider } from './contactSales';
import { AppProviders } from './providers';
import { seedQueryCache } from './initialData';
import { routes } from './routes';

function renderApp(initialEntry: string, auth: Partial<AuthContextValue> = {}) {
  const authValue: AuthContextValue = {
    user: null,
    isAdmin: false,
    loading: false,
    needsMfa: false,
    openSignIn: vi.fn(),
    openSignUp: vi.fn(),
    openMfa: vi.fn(),
    signOut: vi.fn(() => Promise.resolve()),
    ...auth,
  };
  const queryClient = createTestQueryClient();
  queryClient.setQueryData(productKeys.list(), fixtureProducts);
  const router = createMemoryRouter(routes, { initialEntries: [initialEntry] });
  const view = render(
    <QueryClientProvider client={queryClient}>
      <AuthContext.Provider value={authValue}>
        <ContactSalesProvider>
          <RouterProvider router={router} />
        </ContactSalesProvider>
      </AuthContext.Provider>
    </QueryClientProvider>,
  );
  return { router, auth: authValue, unmount: view.unmount };
}

/** The whole app with the real AuthProvider over the fake auth client. */
function renderRealApp(initialEntry: string) {
  const queryClient = createTestQueryClient();
  queryClient.setQueryData(productKeys.list(), fixtureProducts);
  const router = createMemoryRouter(routes, { initialEntries: [initialEntry] });
  render(
    <AppProviders queryClient={queryClient}>
      <RouterProvider router={router} />
    </AppProviders>,
  );
  return { router };
}

const signedIn = { user: { id: '0193a000-0000-7000-8000-0000000000aa', email: 'tech@example.co.nz' } };
const LANDING_HEADING = { level: 1, name: 'Your serial terminal, in your pocket' } as const;

describe('app shell', () => {
  it('has header, navigation, main and footer landmarks', () => {
    mockFetch(() => jsonResponse(500, {}));
    renderApp('/');
    expect(screen.getByRole('banner')).toBeInTheDocument();
    expect(screen.getByRole('navigation', { name: 'Main' })).toBeInTheDocument();
    expect(screen.getByRole('main')).toBeInTheDocument();
    expect(screen.getByRole('contentinfo')).toBeInTheDocument();
    expect(within(screen.getByRole('banner')).getByRole('link', { name: 'Signalcraft' })).toHaveAttribute('href', '/');
  });

  it('shows Sign In to visitors, wired to the auth seam', async () => {
    mockFetch(() => jsonResponse(500, {}));
    const user = userEvent.setup();
    const { auth } = renderApp('/');
    const nav = screen.getByRole('navigation', { name: 'Main' });
    await user.click(within(nav).getByRole('button', { name: 'Sign In' }));
    expect(auth.openSignIn).toHaveBeenCalledTimes(1);
    expect(within(nav).queryByRole('link', { name: 'Dashboard' })).not.toBeInTheDocument();
  });

  it('shows Dashboard, Test Subscription and Sign Out to a signed-in user', async () => {
    mockFetch(() => jsonResponse(500, {}));
    const user = userEvent.setup();
    const { auth } = renderApp('/', signedIn);
    const nav = screen.getByRole('navigation', { name: 'Main' });
    expect(within(nav).getByRole('link', { name: 'Dashboard' })).toHaveAttribute('href', '/dashboard');
    expect(within(nav).getByRole('link', { name: 'Test Subscription' })).toHaveAttribute('href', '/test-subscription');
    expect(within(nav).queryByRole('link', { name: 'Admin' })).not.toBeInTheDocument();
    expect(within(nav).queryByRole('link', { name: 'MFA' })).not.toBeInTheDocument();
    expect(within(nav).queryByRole('button', { name: 'Sign In' })).not.toBeInTheDocument();
    await user.click(within(nav).getByRole('button', { name: 'Sign Out' }));
    expect(auth.signOut).toHaveBeenCalledTimes(1);
  });

  it('adds Admin and MFA links for admins', () => {
    mockFetch(() => jsonResponse(500, {}));
    renderApp('/', { ...signedIn, isAdmin: true });
    const nav = screen.getByRole('navigation', { name: 'Main' });
    expect(within(nav).getByRole('link', { name: 'Admin' })).toHaveAttribute('href', '/admin');
    expect(within(nav).getByRole('link', { name: 'MFA' })).toHaveAttribute('href', '/admin/mfa');
  });

  it('shows no sign-in actions while the stored session loads', () => {
    mockFetch(() => jsonResponse(500, {}));
    renderApp('/', { loading: true });
    const nav = screen.getByRole('navigation', { name: 'Main' });
    // A blank of the buttons' size holds the header's shape until the session is known.
    expect(within(nav).getByTestId('session-placeholder')).toHaveAttribute('aria-hidden', 'true');
    expect(within(nav).queryByRole('button', { name: 'Sign In' })).not.toBeInTheDocument();
    expect(within(nav).queryByRole('button', { name: 'Sign Out' })).not.toBeInTheDocument();
    expect(within(nav).queryByRole('link', { name: 'Dashboard' })).not.toBeInTheDocument();
  });

  it('has the copyright line and legal buttons in the footer', async () => {
    mockFetch(() => jsonResponse(500, {}));
    const user = userEvent.setup();
    const { router } = renderApp('/');
    const footer = screen.getByRole('contentinfo');
    expect(footer).toHaveTextContent(`© ${String(new Date().getFullYear())} Signalcraft Limited. All rights reserved.`);

    await user.click(within(footer).getByRole('button', { name: 'Privacy Policy' }));
    expect(router.state.location.pathname).toBe('/privacy');
    expect(await screen.findByRole('heading', { level: 1, name: 'Privacy Policy' })).toBeInTheDocument();

    await user.click(within(screen.getByRole('contentinfo')).getByRole('button', { name: 'Terms and Conditions' }));
    expect(router.state.location.pathname).toBe('/terms');
    expect(await screen.findByRole('heading', { level: 1, name: 'Terms and Conditions' })).toBeInTheDocument();
  });

  it('scrolls to the top on every route change', async () => {
    mockFetch(() => jsonResponse(500, {}));
    const user = userEvent.setup();
    renderApp('/');
    vi.mocked(window.scrollTo).mockClear();
    await user.click(within(screen.getByRole('contentinfo')).getByRole('button', { name: 'Terms and Conditions' }));
    expect(window.scrollTo).toHaveBeenCalledWith(0, 0);
  });

  it('shows a not-found page with a link home for unknown routes', async () => {
    mockFetch(() => jsonResponse(500, {}));
    const user = userEvent.setup();
    const { router } = renderApp('/no/such/page');
    expect(screen.getByRole('heading', { level: 1, name: 'Page Not Found' })).toBeInTheDocument();
    await user.click(screen.getByRole('link', { name: 'Back to Home' }));
    expect(router.state.location.pathname).toBe('/');
  });

  it('opens the Contact Sales dialog from the landing page', async () => {
    mockFetch(() => jsonResponse(500, {}));
    const user = userEvent.setup();
    renderApp('/');
    const enterprise = screen.getByRole('region', { name: 'Enterprise Solutions' });
    await user.click(within(enterprise).getByRole('button', { name: 'Contact Sales' }));
    // The dialog's code loads when it is first opened.
    expect(await screen.findByRole('dialog', { name: 'Contact Sales' })).toBeInTheDocument();
  });
});

describe('enterprise', () => {
  const ME = {
    id: '0193a000-0000-7000-8000-0000000000aa',
    email: 'tech@example.co.nz',
    full_name: 'Tech Person',
    roles: [],
    aal: 'aal1',
    factors: [],
    enterprise: null,
    pending_email: null,
  };
  const calls = (fetchMock: ReturnType<typeof mockFetch>, path: string) => fetchMock.mock.calls.filter(([url]) => url === path).length;

  it('links the header to /enterprise only for someone who administers an account, from the one /me call', async () => {
    const fetchMock = mockFetch((url) =>
      url === '/api/v1/account/me' ? jsonResponse(200, { ...ME, enterprise: { id: 'a1', name: 'Harbour Traffic Systems Ltd', role: 'admin' } }) : jsonResponse(500, {}),
    );
    renderApp('/', signedIn);
    const nav = screen.getByRole('navigation', { name: 'Main' });
    expect(await within(nav).findByRole('link', { name: 'Enterprise' })).toHaveAttribute('href', '/enterprise');
    expect(calls(fetchMock, '/api/v1/account/me')).toBe(1);
    expect(calls(fetchMock, '/api/v1/enterprise')).toBe(0);
  });

  it('has no Enterprise link for a member or someone without an account, and never asks /api/v1/enterprise', async () => {
    for (const enterprise of [null, { id: 'a1', name: 'Harbour Traffic Systems Ltd', role: 'member' }]) {
      const fetchMock = mockFetch((url) => (url === '/api/v1/account/me' ? jsonResponse(200, { ...ME, enterprise }) : jsonResponse(500, {})));
      const { unmount } = renderApp('/', signedIn);
      await waitFor(() => expect(calls(fetchMock, '/api/v1/account/me')).toBe(1));
      await waitFor(() => expect(screen.getByRole('link', { name: 'Account' })).toBeInTheDocument());
      expect(within(screen.getByRole('navigation', { name: 'Main' })).queryByRole('link', { name: 'Enterprise' })).not.toBeInTheDocument();
      expect(calls(fetchMock, '/api/v1/enterprise')).toBe(0);
      unmount();
    }
  });

  it('never asks while signed out or at the two-factor step', () => {
    const fetchMock = mockFetch(() => jsonResponse(500, {}));
    renderApp('/');
    const { unmount } = renderApp('/', { ...signedIn, needsMfa: true });
    expect(calls(fetchMock, '/api/v1/enterprise')).toBe(0);
    expect(calls(fetchMock, '/api/v1/account/me')).toBe(0);
    unmount();
  });

  it("opens the shell's Contact Sales dialog from the no-account state of /enterprise", async () => {
    mockFetch((url) =>
      url === '/api/v1/enterprise' ? jsonResponse(404, { code: 'enterprise_account_not_found', message: 'No Enterprise Account' }) : jsonResponse(500, {}),
    );
    const user = userEvent.setup();
    renderApp('/enterprise', signedIn);
    const panel = await screen.findByRole('region', { name: 'No Enterprise Account' });
    await user.click(within(panel).getByRole('button', { name: 'Contact Sales' }));
    // The dialog's code loads when it is first opened.
    expect(await screen.findByRole('dialog', { name: 'Contact Sales' })).toBeInTheDocument();
  });
});

describe('route access', () => {
  it.each(['/dashboard', '/enterprise', '/test-subscription', '/admin', '/admin/products', '/admin/audit', '/admin/orders/0193a000-0000-7000-8000-000000000001', '/admin/wirewrite/certificates'])(
    'sends a visitor from %s to the landing page',
    (path) => {
      mockFetch(() => jsonResponse(500, {}));
      const { router } = renderApp(path);
      expect(router.state.location.pathname).toBe('/');
      expect(screen.getByRole('heading', LANDING_HEADING)).toBeInTheDocument();
    },
  );

  it('sends a visitor from checkout to the landing page and opens the sign-in dialog once', async () => {
    mockFetch(() => jsonResponse(500, {}));
    const { router, auth } = renderApp('/checkout/hhtraff');
    expect(router.state.location.pathname).toBe('/');
    await waitFor(() => expect(auth.openSignIn).toHaveBeenCalledTimes(1));
    await waitFor(() => expect(router.state.location.state).toBeNull());
  });

  it('lets a signed-in user into the signed-in routes', async () => {
    mockFetch(() => jsonResponse(500, {}));
    const { router } = renderApp('/dashboard', signedIn);
    expect(router.state.location.pathname).toBe('/dashboard');
    expect(await screen.findByRole('heading', { level: 1, name: 'Dashboard' })).toBeInTheDocument();
  });

  it('sends a signed-in non-admin away from admin routes', () => {
    mockFetch(() => jsonResponse(500, {}));
    const { router } = renderApp('/admin/orders', signedIn);
    expect(router.state.location.pathname).toBe('/');
  });

  it('lets an admin into the admin routes', async () => {
    mockFetch(() => jsonResponse(500, {}));
    const { router } = renderApp('/admin/mfa', { ...signedIn, isAdmin: true });
    expect(router.state.location.pathname).toBe('/admin/mfa');
    // The page's code is loaded on first use.
    expect(await screen.findByRole('heading', { level: 1, name: 'Security Settings' })).toBeInTheDocument();
  });

  it('wires the back-office pages, each loaded on first use', async () => {
    mockFetch(() => jsonResponse(200, { items: [], total: 0, page: 1, page_size: 50 }));
    const { router } = renderApp('/admin/audit', { ...signedIn, isAdmin: true });
    expect(await screen.findByRole('heading', { level: 1, name: 'Audit Log' })).toBeInTheDocument();
    for (const [path, heading] of [
      ['/admin/products', 'Product Management'],
      ['/admin/subscriptions', 'Subscription Management'],
      ['/admin/orders', 'Order Management'],
      ['/admin/mail', 'Mail Outbox'],
      ['/admin/enquiries', 'Enquiries'],
      ['/admin/invoices', 'Invoices'],
      ['/admin/reports/gst', 'GST report'],
      ['/admin', 'Admin Dashboard'],
    ] as const) {
      await act(() => router.navigate(path));
      expect(await screen.findByRole('heading', { level: 1, name: heading })).toBeInTheDocument();
    }
  });

  it('wires the checkout, dashboard and subscription test pages', async () => {
    mockFetch((url) => {
      if (url === '/api/v1/products/hhtraff') return jsonResponse(200, { product: fixtureProduct('hhtraff') });
      if (url === '/api/v1/products/wirewrite') return jsonResponse(200, { product: fixtureProduct('wirewrite') });
      if (url === '/api/v1/account/dashboard') return jsonResponse(200, { subscriptions: [], active_subscriptions: [], orders: [] });
      return jsonResponse(404, { code: 'not_found', message: 'Not found' });
    });
    const { router } = renderApp('/checkout/hhtraff', signedIn);
    expect(await screen.findByRole('group', { name: 'Choose a pricing plan' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 1, name: 'Checkout' })).toBeInTheDocument();
    await act(() => router.navigate('/dashboard'));
    expect(await screen.findByRole('region', { name: 'Order History' })).toBeInTheDocument();
    await act(() => router.navigate('/test-subscription'));
    expect(await screen.findByRole('heading', { level: 1, name: 'Subscription Test' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Subscribe ($6/month)' })).toBeInTheDocument();
  });

  it('lets a signed-in user reach checkout', () => {
    mockFetch(() => jsonResponse(500, {}));
    const { router } = renderApp('/checkout/hhtraff', signedIn);
    expect(router.state.location.pathname).toBe('/checkout/hhtraff');
  });
});

describe('route access while the session loads', () => {
  it.each(['/dashboard', '/admin/orders', '/admin/audit', '/checkout/hhtraff'])('waits on %s instead of redirecting', (path) => {
    mockFetch(() => jsonResponse(500, {}));
    const { router, auth } = renderApp(path, { loading: true });
    expect(router.state.location.pathname).toBe(path);
    expect(screen.getByRole('status')).toHaveTextContent('Loading ...');
    expect(auth.openSignIn).not.toHaveBeenCalled();
  });
});

describe('the app with the real auth provider', () => {
  it('restores an admin session on a reload of /admin/mfa, with the admin links, and Sign Out leaves', async () => {
    // Sign-out drops cached queries; the landing page then fetches the catalogue again.
    const fetchMock = mockFetch(() => jsonResponse(200, { products: fixtureProducts }));
    fakeAuth.restoreSession({ email: 'admin@example.test', roles: ['admin'] }, 'aal2');
    const user = userEvent.setup();
    const { router } = renderRealApp('/admin/mfa');
    expect(screen.getByRole('status')).toHaveTextContent('Loading ...');
    expect(await screen.findByRole('heading', { level: 1, name: 'Security Settings' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/admin/mfa');
    const nav = screen.getByRole('navigation', { name: 'Main' });
    expect(within(nav).getByRole('link', { name: 'Dashboard' })).toBeInTheDocument();
    expect(within(nav).getByRole('link', { name: 'Test Subscription' })).toBeInTheDocument();
    expect(within(nav).getByRole('link', { name: 'Admin' })).toBeInTheDocument();
    expect(within(nav).getByRole('link', { name: 'MFA' })).toHaveAttribute('href', '/admin/mfa');

    await user.click(within(nav).getByRole('button', { name: 'Sign Out' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(within(nav).getByRole('button', { name: 'Sign In' })).toBeInTheDocument();
    expect(within(nav).queryByRole('link', { name: 'Dashboard' })).not.toBeInTheDocument();
    await waitFor(() => expect(fetchMock).toHaveBeenCalledWith('/api/v1/products', expect.anything()));
    expect(screen.getByRole('heading', LANDING_HEADING)).toBeInTheDocument();
  });

  it('sends a signed-in non-admin away from /admin/mfa', async () => {
    mockFetch(() => jsonResponse(500, {}));
    fakeAuth.restoreSession({ roles: [] });
    const { router } = renderRealApp('/admin/mfa');
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(within(screen.getByRole('navigation', { name: 'Main' })).queryByRole('link', { name: 'Admin' })).not.toBeInTheDocument();
  });

  it('opens the real sign-in dialog for a visitor sent from checkout, and signing in closes it', async () => {
    mockFetch(() => jsonResponse(500, {}));
    const user = userEvent.setup();
    const { router } = renderRealApp('/checkout/hhtraff');
    const dialog = await screen.findByRole('dialog', { name: 'Sign In' });
    expect(router.state.location.pathname).toBe('/');
    await user.type(within(dialog).getByLabelText('Email'), 'ana@example.co.nz');
    await user.type(within(dialog).getByLabelText('Password'), 'secret-pass');
    await user.click(within(dialog).getByRole('button', { name: 'Sign In' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(within(screen.getByRole('navigation', { name: 'Main' })).getByRole('link', { name: 'Dashboard' })).toBeInTheDocument();
  });

  it('opens the landing page with the Create Account form at /signup', async () => {
    mockFetch(() => jsonResponse(500, {}));
    const { router } = renderRealApp('/signup');
    const dialog = await screen.findByRole('dialog', { name: 'Create Account' });
    expect(within(dialog).getByLabelText('Full Name')).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Create Account' })).toBeInTheDocument();
    expect(screen.getByRole('heading', LANDING_HEADING)).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/signup');
  });

  it('sends a signed-in visitor from /signup to the dashboard', async () => {
    mockFetch(() => jsonResponse(500, {}));
    const { router, auth } = renderApp('/signup', signedIn);
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
    expect(auth.openSignUp).not.toHaveBeenCalled();
  });

  it('sends an admin to /admin/mfa when the server says mfa_enrollment_required', async () => {
    fakeAuth.restoreSession({ roles: ['admin'] }, 'aal1');
    const { router } = renderRealApp('/admin');
    await screen.findByRole('heading', { level: 1, name: 'Admin Dashboard' });
    mockFetch(() => jsonResponse(403, { code: 'mfa_enrollment_required', message: 'Enrol two-factor authentication first' }));
    await act(() => expect(apiFetch('/api/v1/admin/stats')).rejects.toMatchObject({ code: 'mfa_enrollment_required' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin/mfa'));
  });

  it('opens the code step when the server says insufficient_aal', async () => {
    fakeAuth.restoreSession({ roles: ['admin'] }, 'aal1');
    renderRealApp('/admin');
    await screen.findByRole('heading', { level: 1, name: 'Admin Dashboard' });
    mockFetch(() => jsonResponse(403, { code: 'insufficient_aal', message: 'Two-factor verification required' }));
    await act(() => expect(apiFetch('/api/v1/admin/stats')).rejects.toMatchObject({ code: 'insufficient_aal' }));
    expect(await screen.findByRole('dialog', { name: 'Two-Factor Authentication' })).toBeInTheDocument();
    expect(authClient.signOut).not.toHaveBeenCalled();
  });
});

describe('seedQueryCache', () => {
  it('seeds the product list for the landing page', () => {
    const queryClient = createTestQueryClient();
    expect(seedQueryCache(queryClient, { page: 'landing', products: fixtureProducts }, '/')).toBe(true);
    expect(queryClient.getQueryData(productKeys.list())).toEqual(fixtureProducts);
  });

  it('seeds a product page under the slug of the URL, including a missing product', () => {
    const queryClient = createTestQueryClient();
    const product = fixtureProduct('hhtraff');
    expect(seedQueryCache(queryClient, { page: 'product', product }, '/product/hhtraff')).toBe(true);
    expect(queryClient.getQueryData(productKeys.detail('hhtraff'))).toEqual(product);
    expect(seedQueryCache(queryClient, { page: 'product', product: null }, '/product/gone%20away')).toBe(true);
    expect(queryClient.getQueryState(productKeys.detail('gone away'))?.status).toBe('success');
    expect(queryClient.getQueryData(productKeys.detail('gone away'))).toBeNull();
  });

  it('seeds nothing for other pages, absent data or a mismatched path', () => {
    const queryClient = createTestQueryClient();
    expect(seedQueryCache(queryClient, null, '/')).toBe(false);
    expect(seedQueryCache(queryClient, { page: 'app' }, '/terms')).toBe(false);
    expect(seedQueryCache(queryClient, { page: 'product', product: null }, '/terms')).toBe(false);
    expect(seedQueryCache(queryClient, { page: 'product', product: null }, '/product/%E0%A4%A')).toBe(false);
    expect(queryClient.getQueryCache().getAll()).toHaveLength(0);
  });
});
