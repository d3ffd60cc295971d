// Test-only helpers for the back office: rows in the contract's shapes and a fetch router.
import { jsonResponse, mockApi } from '@/test/utils';
import type { mockFetch } from '@/test/utils';
import type { AdminPlan, AdminProduct, OrderDetail, OrderRow, SubscriptionRow } from './api/schemas';
import type { StatsSeries } from './api/getStatsSeries';
import type { RegisterEntry } from './api/getInvoices';
import type { GstCurrency, GstReport } from './api/getGstReport';

export function plan(overrides: Partial<AdminPlan> = {}): AdminPlan {
  return {
    id: 'plan-1',
    product_id: 'prod-1',
    name: 'Monthly',
    price_amount: 1500,
    currency: 'NZD',
    billing_frequency_value: 1,
    billing_frequency_unit: 'month',
    sort_order: 0,
    trial_days: 0,
    ...overrides,
  };
}

export function product(overrides: Partial<AdminProduct> = {}): AdminProduct {
  return {
    id: 'prod-1',
    slug: 'hhtraff',
    name: 'HHTraff Terminal',
    description: '<p>Serial terminal</p>',
    description_detail: null,
    meta_keywords: null,
    type: 'subscription',
    icon_url: '/products/hhtraff/hhtraff-icon.svg',
    picture_url: null,
    stock_quantity: null,
    track_inventory: false,
    is_active: true,
    features: ['Logging'],
    action_type: null,
    action_url: null,
    show_pricing: true,
    price_nzd: 1500,
    billing_interval: 'month',
    created_at: '2025-10-01T00:00:00Z',
    plans: [plan()],
    ...overrides,
  };
}

export function page<T>(items: T[], total = items.length, pageNumber = 1) {
  return { items, total, page: pageNumber, page_size: 50 };
}

export function subscriptionRow(overrides: Partial<SubscriptionRow> = {}): SubscriptionRow {
  return {
    id: 'sub-1',
    user_id: '0193a000-1111-7000-8000-0000000000aa',
    user_email: 'ana@example.co.nz',
    product_id: 'prod-1',
    product_name: 'HHTraff Terminal',
    pricing_plan_id: 'plan-1',
    plan_name: 'Monthly',
    status: 'active',
    payment_provider: 'stripe',
    current_period_end: '2025-11-01T00:00:00Z',
    cancel_at_period_end: false,
    created_at: '2025-10-01T00:00:00Z',
    past_due_since: null,
    allowed_actions: ['cancel_at_period_end', 'cancel_now'],
    ...overrides,
  };
}

/**
 * An order's lifecycle fields as the server answers them for `status` (docs/billing.md, "Order
 * lifecycle"): what staff may move it to, whether it can ship, and whether Cancel order applies.
 */
export function lifecycle(
  status: string,
  { physical = true, providerPaid = true, paidAfterCancellation = false }: { physical?: boolean; providerPaid?: boolean; paidAfterCancellation?: boolean } = {},
): Pick<OrderRow, 'status' | 'allowed_statuses' | 'has_physical_items' | 'cancellable' | 'paid_after_cancellation'> {
  const allowed: Record<string, string[]> = {
    pending: ['paid', 'cancelled'],
    paid: physical ? ['shipped', 'completed'] : ['completed'],
    shipped: ['completed'],
    cancelled: paidAfterCancellation ? ['paid'] : [],
  };
  return {
    status,
    allowed_statuses: allowed[status] ?? [],
    has_physical_items: physical,
    cancellable: status === 'paid' && providerPaid,
    paid_after_cancellation: paidAfterCancellation,
  };
}

export function orderRow(overrides: Partial<OrderRow> = {}): OrderRow {
  return {
    id: 'order-1',
    order_number: 'SC-7KQ2-M9XD',
    user_id: '0193a000-1111-7000-8000-0000000000aa',
    customer_email: 'ana@example.co.nz',
    total_amount: 25800,
    currency: 'NZD',
    created_at: '2025-10-01T11:30:00Z',
    updated_at: '2025-10-01T11:30:00Z',
    refunded_amount: 0,
    disputed: false,
    amount_mismatch: false,
    payment_to_return: false,
    // The status's lifecycle fields, as the server derives them (overrides win).
    ...lifecycle(overrides.status ?? 'paid', {
      physical: overrides.has_physical_items ?? true,
      paidAfterCancellation: overrides.paid_after_cancellation ?? false,
    }),
    ...overrides,
  };
}

export type OrderItem = OrderDetail['items'][number];

export function orderItem(overrides: Partial<OrderItem> = {}): OrderItem {
  return {
    id: 'item-1',
    product_id: 'prod-2',
    product_name: 'Bluetooth Serial Adapter',
    quantity: 2,
    unit_amount: 12900,
    refunded_quantity: 0,
    restocked_quantity: 0,
    ...overrides,
  };
}

/** The order page's answer; `refundable_amount` is what is paid and not refunded yet unless given. */
export function orderDetail(overrides: Partial<OrderDetail> = {}): OrderDetail {
  const row = orderRow(overrides);
  const paid = ['paid', 'shipped', 'completed', 'refunded'].includes(row.status) || row.paid_after_cancellation;
  return {
    ...row,
    refundable_amount: paid ? row.total_amount - row.refunded_amount : 0,
    items: [orderItem()],
    history: [
      { at: '2025-10-01T11:30:00Z', from_status: null, to_status: 'pending', source: 'system', actor_email: null, note: null },
      { at: '2025-10-01T11:31:00Z', from_status: 'pending', to_status: 'paid', source: 'provider', actor_email: null, note: 'checkout.session.completed' },
    ],
    invoices: [{ number: 'INV-000042', kind: 'invoice', total_amount: 25800 }],
    late_payments: [],
    refunds: [],
    ...overrides,
  };
}

/** The calls made with `method` to `pathname`, with their parsed JSON bodies. */
export function callsTo(fetchMock: ReturnType<typeof mockFetch>, method: string, pathname: string) {
  return fetchMock.mock.calls
    .filter(([url, init]) => new URL(url as string, 'http://localhost').pathname === pathname && (init?.method ?? 'GET') === method)
    .map(([url, init]) => ({
      url: new URL(url as string, 'http://localhost'),
      body: typeof init?.body === 'string' ? (JSON.parse(init.body) as unknown) : init?.body,
      headers: (init?.headers ?? {}) as Record<string, string>,
    }));
}

export { jsonResponse, mockApi };

/** GET /api/v1/admin/stats/series: 12 months from Dec 2025 and 30 days to 27 Nov 2026, all zero unless given. */
export function statsSeries(overrides: Partial<StatsSeries> = {}): StatsSeries {
  const months = Array.from({ length: 12 }, (_, i) => {
    const m = 11 + i; // Dec 2025 ... Nov 2026
    return `${String(2025 + Math.floor(m / 12))}-${String((m % 12) + 1).padStart(2, '0')}`;
  });
  const days = Array.from({ length: 30 }, (_, i) => {
    const d = new Date(Date.UTC(2026, 9, 29 + i));
    return d.toISOString().slice(0, 10);
  });
  return {
    time_zone: 'Pacific/Auckland',
    currencies: ['NZD', 'AUD', 'USD'],
    revenue_by_month: months.map((month) => ({ month, starts_at: `${month}-01T00:00:00+13:00`, revenue: { NZD: 0, AUD: 0, USD: 0 } })),
    orders_by_day: days.map((day) => ({ day, starts_at: `${day}T00:00:00+13:00`, orders: 0 })),
    subscriptions_by_month: months.map((month) => ({ month, starts_at: `${month}-01T00:00:00+13:00`, new: 0, cancelled: 0 })),
    ...overrides,
  };
}

/** One row of the invoice register (GET /api/v1/admin/invoices). */
export function registerEntry(overrides: Partial<RegisterEntry> = {}): RegisterEntry {
  return {
    number: 'INV-000042',
    kind: 'invoice',
    issued_at: '2026-11-03T22:15:00Z',
    buyer_name: 'Ana Tupou',
    buyer_email: 'ana@example.co.nz',
    order_id: 'order-1',
    order_number: 'SC-7KQ2-M9XD',
    subscription_id: null,
    currency: 'NZD',
    total_amount: 25800,
    gst_amount: 3365,
    zero_rated: false,
    adjusts_number: null,
    ...overrides,
  };
}

export function gstCurrency(overrides: Partial<GstCurrency> = {}): GstCurrency {
  return {
    currency: 'NZD',
    invoiced_amount: 123450,
    credited_amount: 4900,
    net_amount: 118550,
    gst_amount: 15463,
    zero_rated_amount: 0,
    invoice_count: 12,
    credit_note_count: 1,
    ...overrides,
  };
}

/** GET /api/v1/admin/reports/gst. */
export function gstReport(overrides: Partial<GstReport> = {}): GstReport {
  return { from: '2026-09-01', to: '2026-10-31', currencies: [gstCurrency()], ...overrides };
}
