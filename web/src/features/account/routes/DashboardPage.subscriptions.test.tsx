// The dashboard's subscription lifecycle (docs/billing.md, "Subscription lifecycle"): the past-due
// warning and the way to the billing portal, "Ends on" for one cancelling at the period end,
// Cancel subscription (at the end of the period or now), Resume, Change plan with its preview, and
// Past subscriptions. Dates are far from today, so no clock is faked.
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi, type MockInstance } from 'vitest';
import { browserNavigation } from '@/lib/navigation';
import { fakeAuth } from '@/test/fakeAuthClient';
import { jsonResponse, mockFetch, renderRoute } from '@/test/utils';
import type { Dashboard, Subscription } from '../api/dashboard';
import { accountKeys } from '../api/keys';
import { DashboardPage } from './DashboardPage';

const PERIOD_END = '2099-03-01T00:00:00Z'; // 1 Mar 2099 in New Zealand
const MONTHLY = { id: 'plan-m', name: 'Monthly', price_amount: 1500, currency: 'NZD', billing_frequency_value: 1, billing_frequency_unit: 'month' };
const YEARLY = { ...MONTHLY, id: 'plan-y', name: 'Yearly', price_amount: 15000, billing_frequency_unit: 'year', sort_order: 1 };
const AUD_MONTHLY = { ...MONTHLY, id: 'plan-aud', name: 'Monthly (AUD)', currency: 'AUD', sort_order: 2 };

function sub(fields: Partial<Subscription> = {}): Subscription {
  return {
    id: 'sub-1',
    status: 'active',
    payment_provider: 'test',
    current_period_end: PERIOD_END,
    cancel_at_period_end: false,
    created_at: '2099-02-01T00:00:00Z',
    past_due_since: null,
    access_ends_at: null,
    trial_end: null,
    ended_at: null,
    pricing_plan_id: 'plan-m',
    allowed_actions: ['cancel_at_period_end', 'cancel_now', 'change_plan'],
    product: { id: 'p1', slug: 'hhtraff', name: 'HHTraff Terminal', price_nzd: 1500, billing_interval: 'month' },
    plan: MONTHLY,
    ...fields,
  };
}

function dashboard(subscriptions: Subscription[]): Dashboard {
  const live = subscriptions.filter((s) => s.status === 'active' || s.status === 'trialing');
  return {
    subscriptions,
    active_subscriptions: live.map((s) => ({
      product_name: s.product.name,
      product_slug: s.product.slug,
      status: s.status === 'active' ? 'active' : 'trial',
      subscription_source: 'test_checkout',
      expires_at: s.current_period_end,
    })),
    orders: [],
    orders_total: 0,
    billing_portal: true,
  };
}

type Handler = (url: string, init: RequestInit | undefined) => Response | undefined;

/** Serves the dashboard (its current answer) and anything `handler` answers; the rest is 404. */
function serve(initial: Subscription[], handler: Handler = () => undefined) {
  const state = { subscriptions: initial };
  const fetchMock = mockFetch((url, init) => {
    if (url === '/api/v1/account/dashboard') return jsonResponse(200, dashboard(state.subscriptions));
    return handler(url, init) ?? jsonResponse(404, { code: 'not_found', message: 'Not found' });
  });
  return { state, fetchMock };
}

function callsTo(fetchMock: ReturnType<typeof mockFetch>, path: string) {
  return fetchMock.mock.calls.filter(([url]) => url === path).map(([, init]) => ({ method: init?.method, body: init?.body ? (JSON.parse(init.body as string) as unknown) : undefined }));
}

async function subscriptionLine(name = 'HHTraff Terminal') {
  const panel = await screen.findByRole('region', { name: 'Active Subscriptions' });
  return within(panel).getAllByRole('listitem').find((item) => item.textContent.includes(name)) ?? within(panel).getByText(name);
}

function renderDashboard() {
  return renderRoute(<DashboardPage />, { path: '/dashboard', initialEntry: '/dashboard' });
}

let assign: MockInstance<(url: string) => void>;

beforeEach(() => {
  fakeAuth.restoreSession();
  assign = vi.spyOn(browserNavigation, 'assign').mockImplementation(() => undefined);
});
afterEach(() => {
  assign.mockRestore();
});

describe('DashboardPage: a past-due subscription', () => {
  it('warns with the date access ends, and Update payment method opens the billing portal', async () => {
    const { fetchMock } = serve([sub({ status: 'past_due', past_due_since: '2099-02-20T00:00:00Z', access_ends_at: '2099-02-27T00:00:00Z', allowed_actions: ['cancel_now'] })], (url) =>
      url === '/functions/v1/create-portal-session' ? jsonResponse(200, { url: 'http://localhost/pay/test/portal/tok' }) : undefined,
    );
    const user = userEvent.setup();
    renderDashboard();
    const line = await subscriptionLine();
    expect(within(line).getByRole('alert')).toHaveTextContent('Payment failed: update your payment method by 27 Feb 2099 to keep access.');
    expect(line).toHaveTextContent('Past due');
    expect(line).not.toHaveTextContent('Expires');
    // Only what the server allows: no plan change while past due.
    expect(within(line).queryByRole('button', { name: 'Change plan' })).not.toBeInTheDocument();
    await user.click(within(line).getByRole('button', { name: 'Update payment method' }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith('http://localhost/pay/test/portal/tok'));
    expect(callsTo(fetchMock, '/functions/v1/create-portal-session')[0]?.body).toEqual({ returnPath: '/dashboard' });
  });

  it('opens the billing portal at once from the payment-failed mail\'s link (?billing=portal), once', async () => {
    const { fetchMock } = serve([sub({ status: 'past_due', past_due_since: '2099-02-20T00:00:00Z', access_ends_at: '2099-02-27T00:00:00Z', allowed_actions: ['cancel_now'] })], (url) =>
      url === '/functions/v1/create-portal-session' ? jsonResponse(200, { url: 'http://localhost/pay/test/portal/tok' }) : undefined,
    );
    renderRoute(<DashboardPage />, { path: '/dashboard', initialEntry: '/dashboard?billing=portal' });
    await waitFor(() => expect(assign).toHaveBeenCalledWith('http://localhost/pay/test/portal/tok'));
    expect(callsTo(fetchMock, '/functions/v1/create-portal-session')).toHaveLength(1);
  });

  it('says the payment is overdue once the grace period has passed', async () => {
    serve([sub({ status: 'past_due', past_due_since: '2000-01-01T00:00:00Z', access_ends_at: '2000-01-08T00:00:00Z' })]);
    renderDashboard();
    const line = await subscriptionLine();
    expect(within(line).getByRole('alert')).toHaveTextContent('Payment overdue: update your payment method to restore access.');
    expect(within(line).getByRole('button', { name: 'Update payment method' })).toBeEnabled();
  });
});

describe('DashboardPage: cancelling and resuming', () => {
  it('says Ends on for one cancelling at the period end, the expiry text otherwise', async () => {
    serve([sub(), sub({ id: 'sub-2', cancel_at_period_end: true, access_ends_at: PERIOD_END, allowed_actions: ['resume'], product: { id: 'p2', slug: 'wirewrite', name: 'WireWrite', price_nzd: 600, billing_interval: 'month' } })]);
    renderDashboard();
    const renewing = await subscriptionLine('HHTraff Terminal');
    expect(renewing).toHaveTextContent('Expires 1 Mar 2099');
    expect(renewing).toHaveTextContent('Monthly · $15.00 per month');
    const ending = await subscriptionLine('WireWrite');
    expect(ending).toHaveTextContent('Ends on 1 Mar 2099');
    expect(ending).not.toHaveTextContent('Expires');
    expect(within(ending).getByRole('button', { name: 'Resume subscription' })).toBeInTheDocument();
    expect(within(ending).queryByRole('button', { name: 'Cancel subscription' })).not.toBeInTheDocument();
  });

  it('cancels at the end of the period: the choice says until when, and the endpoint gets at_period_end true', async () => {
    const { state, fetchMock } = serve([sub()], (url) => {
      if (url !== '/api/v1/account/subscriptions/sub-1/cancel') return undefined;
      state.subscriptions = [sub({ cancel_at_period_end: true, access_ends_at: PERIOD_END, allowed_actions: ['resume'] })];
      return jsonResponse(200, state.subscriptions[0]);
    });
    const user = userEvent.setup();
    const { queryClient } = renderDashboard();
    // A cached validate-subscription answer (the test page's) is reloaded too: access may have changed.
    queryClient.setQueryData(accountKeys.subscriptionValidation('hhtraff'), { valid: true });
    await user.click(within(await subscriptionLine()).getByRole('button', { name: 'Cancel subscription' }));
    const dialog = screen.getByRole('dialog', { name: 'Cancel subscription' });
    expect(dialog).toHaveTextContent('You keep access until 1 Mar 2099.');
    expect(dialog).toHaveTextContent('Access ends immediately. No refund is made.');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel at the end of the period' }));
    expect(await screen.findByRole('status')).toHaveTextContent('Your subscription will end on 1 Mar 2099.');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(callsTo(fetchMock, '/api/v1/account/subscriptions/sub-1/cancel')).toEqual([{ method: 'POST', body: { at_period_end: true } }]);
    // The dashboard reloaded: the line now ends on the date and offers Resume.
    expect(await within(await subscriptionLine()).findByText('Ends on 1 Mar 2099')).toBeInTheDocument();
    expect(queryClient.getQueryState(accountKeys.subscriptionValidation('hhtraff'))?.isInvalidated).toBe(true);
  });

  it('cancels now (at_period_end false); the dialog outlives its line, which moves to Past subscriptions', async () => {
    const { state, fetchMock } = serve([sub()], (url) => {
      if (url !== '/api/v1/account/subscriptions/sub-1/cancel') return undefined;
      state.subscriptions = [sub({ status: 'cancelled', ended_at: '2099-02-10T00:00:00Z', allowed_actions: [] })];
      return jsonResponse(200, state.subscriptions[0]);
    });
    const user = userEvent.setup();
    renderDashboard();
    await user.click(within(await subscriptionLine()).getByRole('button', { name: 'Cancel subscription' }));
    await user.click(within(screen.getByRole('dialog', { name: 'Cancel subscription' })).getByRole('button', { name: 'Cancel now' }));
    expect(await screen.findByRole('status')).toHaveTextContent('Your subscription has been cancelled.');
    expect(callsTo(fetchMock, '/api/v1/account/subscriptions/sub-1/cancel')).toEqual([{ method: 'POST', body: { at_period_end: false } }]);
    const past = await screen.findByRole('region', { name: 'Past subscriptions' });
    expect(within(past).getByRole('listitem')).toHaveTextContent('HHTraff Terminal');
    expect(within(past).getByRole('listitem')).toHaveTextContent('Ended 10 Feb 2099');
    expect(screen.getByText('You have no active subscriptions.')).toBeInTheDocument();
  });

  it("keeps the dialog open with the server's words when the cancel is refused", async () => {
    serve([sub()], (url) =>
      url === '/api/v1/account/subscriptions/sub-1/cancel' ? jsonResponse(502, { code: 'payment_provider_error', message: 'The payment provider is not answering.' }) : undefined,
    );
    const user = userEvent.setup();
    renderDashboard();
    await user.click(within(await subscriptionLine()).getByRole('button', { name: 'Cancel subscription' }));
    const dialog = screen.getByRole('dialog', { name: 'Cancel subscription' });
    await user.click(within(dialog).getByRole('button', { name: 'Cancel now' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('The payment provider is not answering.');
    await user.click(within(dialog).getByRole('button', { name: 'Keep subscription' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('resumes after a confirmation that says when it renews', async () => {
    const { state, fetchMock } = serve([sub({ cancel_at_period_end: true, access_ends_at: PERIOD_END, allowed_actions: ['resume'] })], (url) => {
      if (url !== '/api/v1/account/subscriptions/sub-1/resume') return undefined;
      state.subscriptions = [sub()];
      return jsonResponse(200, state.subscriptions[0]);
    });
    const user = userEvent.setup();
    renderDashboard();
    await user.click(within(await subscriptionLine()).getByRole('button', { name: 'Resume subscription' }));
    const dialog = screen.getByRole('dialog', { name: 'Resume subscription' });
    expect(dialog).toHaveTextContent('Your subscription will renew on 1 Mar 2099.');
    await user.click(within(dialog).getByRole('button', { name: 'Resume subscription' }));
    expect(await screen.findByRole('status')).toHaveTextContent('Your subscription will renew on 1 Mar 2099.');
    expect(callsTo(fetchMock, '/api/v1/account/subscriptions/sub-1/resume')).toEqual([{ method: 'POST', body: undefined }]);
    expect(await within(await subscriptionLine()).findByText('Expires 1 Mar 2099')).toBeInTheDocument();
  });
});

describe('DashboardPage: Change plan', () => {
  const catalogue = (url: string) =>
    url === '/api/v1/products/hhtraff' ? jsonResponse(200, { product: { slug: 'hhtraff', name: 'HHTraff Terminal', plans: [{ ...MONTHLY, sort_order: 0 }, YEARLY, AUD_MONTHLY] } }) : undefined;

  it('offers the other plans in the same currency, previews the cost, and changes on confirmation', async () => {
    const { state, fetchMock } = serve([sub()], (url) => {
      if (url === '/api/v1/account/subscriptions/sub-1/change-preview?priceId=plan-y')
        return jsonResponse(200, { amount_due_now: 13800, currency: 'NZD', next_renewal_at: '2100-02-01T00:00:00Z', next_renewal_amount: 15000, credit: 1200, balance_after: 0 });
      if (url === '/api/v1/account/subscriptions/sub-1/change-plan') {
        state.subscriptions = [sub({ pricing_plan_id: 'plan-y', plan: YEARLY })];
        return jsonResponse(200, state.subscriptions[0]);
      }
      return catalogue(url);
    });
    const user = userEvent.setup();
    renderDashboard();
    await user.click(within(await subscriptionLine()).getByRole('button', { name: 'Change plan' }));
    const dialog = screen.getByRole('dialog', { name: 'Change plan' });
    const choices = within(dialog).getByRole('group', { name: 'Choose a new plan' });
    await waitFor(() => expect(within(choices).getAllByRole('radio')).toHaveLength(1));
    expect(within(dialog).getByRole('button', { name: 'Confirm plan change' })).toBeDisabled();
    await user.click(within(choices).getByRole('radio', { name: 'Yearly · $150.00 per year' }));
    const preview = await within(dialog).findByRole('group', { name: 'Plan change preview' });
    expect(preview).toHaveTextContent('Due now: $138.00');
    expect(preview).toHaveTextContent('Then $150.00 from 1 Feb 2100');
    expect(preview).toHaveTextContent('Credit for unused time on your current plan: $12.00');
    expect(preview).not.toHaveTextContent('Credit kept');
    await user.click(within(dialog).getByRole('button', { name: 'Confirm plan change' }));
    expect(await screen.findByRole('status')).toHaveTextContent('You are now on the Yearly plan.');
    expect(callsTo(fetchMock, '/api/v1/account/subscriptions/sub-1/change-plan')).toEqual([{ method: 'POST', body: { priceId: 'plan-y' } }]);
    // One Idempotency-Key for the plan chosen: a double click or a retry changes (and charges) once.
    const changeCalls = fetchMock.mock.calls.filter(([url]) => url === '/api/v1/account/subscriptions/sub-1/change-plan');
    expect((changeCalls[0]?.[1]?.headers ?? {}) as Record<string, string>).toHaveProperty('Idempotency-Key', expect.stringMatching(/^[\w-]{8,}$/));
    expect(await within(await subscriptionLine()).findByText('Yearly · $150.00 per year')).toBeInTheDocument();
  });

  it('shows the credit kept for the next renewal, and the server refusal in its own words', async () => {
    serve([sub({ pricing_plan_id: 'plan-y', plan: YEARLY })], (url) => {
      if (url === '/api/v1/account/subscriptions/sub-1/change-preview?priceId=plan-m')
        return jsonResponse(200, { amount_due_now: 0, currency: 'NZD', next_renewal_at: '2099-03-01T00:00:00Z', next_renewal_amount: 0, credit: 9000, balance_after: 7500 });
      if (url === '/api/v1/account/subscriptions/sub-1/change-plan') return jsonResponse(409, { code: 'past_due', message: 'Pay the overdue renewal before changing plan.' });
      return catalogue(url);
    });
    const user = userEvent.setup();
    renderDashboard();
    await user.click(within(await subscriptionLine()).getByRole('button', { name: 'Change plan' }));
    const dialog = screen.getByRole('dialog', { name: 'Change plan' });
    await user.click(await within(dialog).findByRole('radio', { name: 'Monthly · $15.00 per month' }));
    const preview = await within(dialog).findByRole('group', { name: 'Plan change preview' });
    expect(preview).toHaveTextContent('Due now: $0.00');
    expect(preview).toHaveTextContent('Credit kept for your next renewal: $75.00');
    await user.click(within(dialog).getByRole('button', { name: 'Confirm plan change' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Pay the overdue renewal before changing plan.');
  });
});

describe('DashboardPage: Past subscriptions', () => {
  it('lists cancelled and expired subscriptions below the active ones, with the end date when known', async () => {
    serve([sub(), sub({ id: 'sub-2', status: 'expired', ended_at: '2099-01-05T00:00:00Z', allowed_actions: [] }), sub({ id: 'sub-3', status: 'cancelled', ended_at: null, allowed_actions: [] })]);
    renderDashboard();
    const past = await screen.findByRole('region', { name: 'Past subscriptions' });
    const items = within(past).getAllByRole('listitem');
    expect(items).toHaveLength(2);
    expect(items[0]).toHaveTextContent('Expired · Monthly · $15.00 per month');
    expect(items[0]).toHaveTextContent('Ended 5 Jan 2099');
    expect(items[1]).toHaveTextContent('Cancelled');
    expect(items[1]).not.toHaveTextContent('Ended');
    expect(within(past).queryByRole('button')).not.toBeInTheDocument();
    // Below Active Subscriptions, above the Order History.
    const headings = screen.getAllByRole('heading', { level: 2 }).map((h) => h.textContent);
    expect(headings).toEqual(['Active Subscriptions', 'Past subscriptions', 'Order History']);
  });

  it('has no Past subscriptions heading when none has ended', async () => {
    serve([sub()]);
    renderDashboard();
    await screen.findByRole('region', { name: 'Active Subscriptions' });
    expect(screen.queryByRole('heading', { name: 'Past subscriptions' })).not.toBeInTheDocument();
  });
});
