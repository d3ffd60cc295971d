import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi, type MockInstance } from 'vitest';
import { fixtureProduct } from '@/dev/fixtures';
import { browserNavigation } from '@/lib/navigation';
import type { Product } from '@/lib/types';
import { fakeAuth } from '@/test/fakeAuthClient';
import { jsonResponse, mockFetch, renderRoute } from '@/test/utils';
import { TestSubscriptionPage } from './TestSubscriptionPage';

/** Spec section 9: the offline grace for a cached subscription validation is 7 days. */
const SEVEN_DAYS_MS = 7 * 24 * 60 * 60 * 1000;

const PLAN_ID = '0e16d193-902d-4547-a8ab-ef1d1c040ab8';
const ACTIVE = { valid: true, status: 'active', expiresAt: '2025-11-10T00:00:00Z', daysRemaining: 31, message: 'Subscription active' };
const NONE = { valid: false, status: 'none', expiresAt: null, daysRemaining: 0, message: 'No subscription found' };
const SESSION = { sessionId: 'cs_test_9', url: 'https://pay.example.test/pay/test/cs_test_9', checkoutId: 'chk-9' };
const PORTAL = { url: 'https://pay.example.test/pay/test/portal/tok' };

function wirewrite(): Product {
  const product = fixtureProduct('wirewrite');
  product.plans = [
    { id: 'annual', name: 'Pro Annual', price_amount: 6000, currency: 'NZD', billing_frequency_value: 1, billing_frequency_unit: 'year', sort_order: 1 },
    { id: PLAN_ID, name: 'Pro Monthly', price_amount: 600, currency: 'NZD', billing_frequency_value: 1, billing_frequency_unit: 'month', sort_order: 0 },
  ];
  return product;
}

type Respond = () => Response | Promise<Response>;

interface Answers {
  product?: Respond;
  validate?: Respond;
  checkout?: Respond;
  portal?: Respond;
}

function serve(answers: Answers = {}) {
  const current: Required<Answers> = {
    product: () => jsonResponse(200, { product: wirewrite() }),
    validate: () => jsonResponse(200, ACTIVE),
    checkout: () => jsonResponse(200, SESSION),
    portal: () => jsonResponse(200, PORTAL),
    ...answers,
  };
  const fetchMock = mockFetch((url) => {
    switch (url) {
      case '/api/v1/products/wirewrite':
        return current.product();
      case '/functions/v1/validate-subscription':
        return current.validate();
      case '/functions/v1/create-checkout-session':
        return current.checkout();
      case '/functions/v1/create-portal-session':
        return current.portal();
      default:
        return jsonResponse(404, { code: 'not_found', message: 'Not found' });
    }
  });
  return {
    fetchMock,
    answer(next: Answers) {
      Object.assign(current, next);
    },
    calls(url: string) {
      return fetchMock.mock.calls.filter(([called]) => called === url);
    },
  };
}

function renderPage() {
  return renderRoute(<TestSubscriptionPage />, { path: '/test-subscription', initialEntry: '/test-subscription' });
}

/** The value beside a term of the status or the price id. */
function valueOf(term: string): string | null {
  return screen.getByText(term, { selector: 'dt' }).nextElementSibling?.textContent ?? null;
}

function bodyOf(init: RequestInit | undefined): unknown {
  return JSON.parse(init?.body as string);
}

let assign: MockInstance<(url: string) => void>;

beforeEach(() => {
  window.localStorage.clear();
  fakeAuth.restoreSession();
  assign = vi.spyOn(browserNavigation, 'assign').mockImplementation(() => undefined);
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(Date.parse('2025-10-10T00:00:00Z'));
});

afterEach(() => {
  vi.useRealTimers();
  window.localStorage.clear();
});

describe('TestSubscriptionPage', () => {
  it('checks the WireWrite subscription on load and shows valid, status, days, expiry and message', async () => {
    const server = serve();
    renderPage();
    expect(screen.getByRole('heading', { level: 1, name: 'Subscription Test' })).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('Checking subscription status...');
    await waitFor(() => expect(valueOf('Valid')).toBe('Yes'));
    expect(valueOf('Status')).toBe('active');
    expect(valueOf('Days Remaining')).toBe('31');
    expect(valueOf('Expiry Date')).toBe('10 Nov 2025');
    expect(valueOf('Message')).toBe('Subscription active');
    expect(screen.getByRole('status')).toHaveTextContent('Status checked 10 Oct 2025, 1:00 pm.');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    const [validate] = server.calls('/functions/v1/validate-subscription');
    expect(bodyOf(validate![1])).toEqual({ productSlug: 'wirewrite' });
    expect((validate![1]?.headers as Record<string, string>).Authorization).toMatch(/^Bearer token-/);
    expect(document.title).toBe('Subscription Test | Signalcraft');
  });

  it("shows the Pro Monthly plan's id from the catalogue, and the instructions", async () => {
    serve();
    renderPage();
    await waitFor(() => expect(valueOf('Price ID')).toBe(PLAN_ID));
    const instructions = screen.getByRole('region', { name: 'Test Instructions' });
    expect(instructions).toHaveTextContent('TEST MODE: press Pay');
    expect(instructions).toHaveTextContent('Decline');
    expect(instructions).toHaveTextContent("When Stripe is configured, Stripe's test cards apply");
  });

  it('Subscribe ($6/month) starts a checkout for that plan and goes to the payment page', async () => {
    const server = serve();
    const user = userEvent.setup();
    renderPage();
    await waitFor(() => expect(valueOf('Price ID')).toBe(PLAN_ID));
    await user.click(screen.getByRole('button', { name: 'Subscribe ($6/month)' }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith(SESSION.url));
    expect(bodyOf(server.calls('/functions/v1/create-checkout-session')[0]![1])).toEqual({ priceId: PLAN_ID, productSlug: 'wirewrite' });
    expect(screen.getByRole('status')).toHaveTextContent('Redirecting...');
    expect(screen.getByRole('button', { name: 'Subscribe ($6/month)' })).toBeDisabled();
  });

  it.each([
    [
      'a refusal',
      () => jsonResponse(409, { code: 'already_subscribed', message: 'You already have an active subscription to WireWrite.' }),
      'Error: Failed to create checkout session: You already have an active subscription to WireWrite.',
    ],
    ['an answer without a session id', () => jsonResponse(200, { url: SESSION.url }), 'Error: No session ID returned from checkout creation'],
    ['an answer without a url', () => jsonResponse(200, { sessionId: 'cs_1' }), 'Error: Stripe failed to load'],
  ])('shows %s of the checkout as an error', async (_name, checkout, text) => {
    serve({ checkout });
    const user = userEvent.setup();
    renderPage();
    await waitFor(() => expect(valueOf('Price ID')).toBe(PLAN_ID));
    await user.click(screen.getByRole('button', { name: 'Subscribe ($6/month)' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(text);
    expect(assign).not.toHaveBeenCalled();
    expect(screen.getByRole('button', { name: 'Subscribe ($6/month)' })).toBeEnabled();
  });

  it('shows a failing redirect as an error', async () => {
    assign.mockImplementation(() => {
      throw new Error('Navigation blocked');
    });
    serve();
    const user = userEvent.setup();
    renderPage();
    await waitFor(() => expect(valueOf('Price ID')).toBe(PLAN_ID));
    await user.click(screen.getByRole('button', { name: 'Subscribe ($6/month)' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Error: Stripe redirect failed: Navigation blocked');
  });

  it('Manage Billing opens the billing portal, returning here', async () => {
    const server = serve();
    const user = userEvent.setup();
    renderPage();
    await user.click(screen.getByRole('button', { name: 'Manage Billing' }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith(PORTAL.url));
    expect(bodyOf(server.calls('/functions/v1/create-portal-session')[0]![1])).toEqual({ returnPath: '/test-subscription' });
  });

  it.each([
    [
      'a refusal',
      () => jsonResponse(404, { code: 'no_billing_account', message: 'You have not checked out yet.' }),
      'Error: Failed to create portal session: You have not checked out yet.',
    ],
    ['an answer without a url', () => jsonResponse(200, {}), 'Error: No URL returned from portal creation'],
  ])('shows %s of the portal as an error', async (_name, portal, text) => {
    serve({ portal });
    const user = userEvent.setup();
    renderPage();
    await user.click(screen.getByRole('button', { name: 'Manage Billing' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(text);
    expect(assign).not.toHaveBeenCalled();
  });

  it('Check Status asks again and shows the new answer', async () => {
    const server = serve({ validate: () => jsonResponse(200, NONE) });
    const user = userEvent.setup();
    renderPage();
    await waitFor(() => expect(valueOf('Valid')).toBe('No'));
    expect(valueOf('Status')).toBe('none');
    expect(valueOf('Expiry Date')).toBe('None');
    expect(valueOf('Message')).toBe('No subscription found');
    server.answer({ validate: () => jsonResponse(200, ACTIVE) });
    await user.click(screen.getByRole('button', { name: 'Check Status' }));
    await waitFor(() => expect(valueOf('Valid')).toBe('Yes'));
    expect(server.calls('/functions/v1/validate-subscription')).toHaveLength(2);
  });

  it("shows a failed check as 'Error: Validation failed: ...' with no access when nothing is cached", async () => {
    serve({ validate: () => jsonResponse(500, { code: 'internal_error', message: 'Database unavailable' }) });
    renderPage();
    expect(await screen.findByRole('alert')).toHaveTextContent('Error: Validation failed: Database unavailable');
    expect(valueOf('Valid')).toBe('No');
    expect(valueOf('Status')).toBe('requires_online_check');
    expect(valueOf('Message')).toBe('Online validation required');
    expect(screen.getByRole('status')).toHaveTextContent('Status not confirmed online.');
  });

  it('answers from the cache within 7 days when the server cannot be reached, and demands a check after', async () => {
    const server = serve();
    const user = userEvent.setup();
    const view = renderPage();
    await waitFor(() => expect(valueOf('Valid')).toBe('Yes'));
    view.unmount();

    server.answer({ validate: () => Promise.reject(new TypeError('Failed to fetch')) });
    vi.setSystemTime(Date.parse('2025-10-10T00:00:00Z') + SEVEN_DAYS_MS);
    renderPage();
    expect(await screen.findByRole('alert')).toHaveTextContent('Error: Validation failed: The server could not be reached.');
    expect(valueOf('Valid')).toBe('Yes');
    expect(screen.getByRole('status')).toHaveTextContent('Showing the saved result from 10 Oct 2025, 1:00 pm (the server could not be reached).');

    vi.setSystemTime(Date.parse('2025-10-10T00:00:00Z') + SEVEN_DAYS_MS + 1);
    await user.click(screen.getByRole('button', { name: 'Check Status' }));
    await waitFor(() => expect(valueOf('Valid')).toBe('No'));
    expect(valueOf('Message')).toBe('Online validation required (last checked 7 days ago)');
  });

  it("shows an unusable answer as 'Error: Unable to validate subscription'", async () => {
    serve({ validate: () => new Response('<!doctype html>', { status: 200 }) });
    renderPage();
    expect(await screen.findByRole('alert')).toHaveTextContent('Error: Unable to validate subscription');
    expect(valueOf('Valid')).toBe('No');
  });

  it("says 'User not authenticated' when the session is gone", async () => {
    fakeAuth.reset();
    const server = serve();
    renderPage();
    await waitFor(() => expect(valueOf('Message')).toBe('User not authenticated'));
    expect(valueOf('Valid')).toBe('No');
    expect(valueOf('Status')).toBe('none');
    expect(server.calls('/functions/v1/validate-subscription')).toHaveLength(0);
  });

  it('never hard-codes the plan: without a $6/month plan, Subscribe is off and the page says why', async () => {
    const product = wirewrite();
    product.plans = product.plans!.filter((plan) => plan.id !== PLAN_ID);
    const server = serve({ product: () => jsonResponse(200, { product }) });
    renderPage();
    expect(await screen.findByRole('alert')).toHaveTextContent('Error: The WireWrite Pro Monthly plan ($6/month) is not available.');
    expect(valueOf('Price ID')).toBe('Not available');
    expect(screen.getByRole('button', { name: 'Subscribe ($6/month)' })).toBeDisabled();
    expect(server.calls('/functions/v1/create-checkout-session')).toHaveLength(0);
    expect(within(screen.getByRole('region', { name: 'Subscription Status' })).getByRole('button', { name: 'Manage Billing' })).toBeEnabled();
  });
});
