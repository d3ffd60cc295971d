// GET /api/v1/account/dashboard (docs/billing.md): the dashboard in one call, the caller's rows only.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { z } from '@/lib/schema';
import { fulfilmentFields } from '@/lib/shipping';
import { apiFetch } from '@/lib/api';
import { accountKeys } from './keys';

/** What the customer may do with a subscription now (server-computed: offer only these). */
export const SUBSCRIPTION_ACTIONS = ['cancel_at_period_end', 'cancel_now', 'resume', 'change_plan'] as const;
export type SubscriptionAction = (typeof SUBSCRIPTION_ACTIONS)[number];

/**
 * A subscription row as the dashboard and the subscription actions answer it (docs/billing.md,
 * "Subscription lifecycle"). The lifecycle fields are optional: an older server omits them.
 */
export const subscriptionSchema = z.object({
  id: z.string(),
  /** active | trialing | past_due | pending | cancelled | expired */
  status: z.string(),
  payment_provider: z.string(),
  /** ISO-8601 UTC or null. */
  current_period_end: z.string().nullable(),
  cancel_at_period_end: z.boolean(),
  created_at: z.string(),
  /** When a renewal failed (past_due), ISO-8601 UTC. */
  past_due_since: z.string().nullable().optional(),
  /** When access ends: past_due the end of the grace period, cancelling the period end, trialing the trial end. */
  access_ends_at: z.string().nullable().optional(),
  trial_end: z.string().nullable().optional(),
  /** When it was cancelled or expired. */
  ended_at: z.string().nullable().optional(),
  pricing_plan_id: z.string().nullable().optional(),
  /** Unknown words from a newer server are dropped, never offered. */
  allowed_actions: z
    .array(z.string())
    .transform((actions) => actions.filter((action): action is SubscriptionAction => (SUBSCRIPTION_ACTIONS as readonly string[]).includes(action)))
    .optional(),
  product: z.object({ id: z.string(), slug: z.string(), name: z.string(), price_nzd: z.number().int(), billing_interval: z.string().nullable() }),
  plan: z
    .object({
      id: z.string().optional(),
      name: z.string(),
      price_amount: z.number().int(),
      currency: z.string(),
      billing_frequency_value: z.number().int(),
      billing_frequency_unit: z.string(),
    })
    .nullable(),
});

/** The spec's active-subscription result (section 3). */
const activeSubscriptionSchema = z.object({
  product_name: z.string(),
  product_slug: z.string(),
  /** active | trial (anything else is shown as inactive). */
  status: z.string(),
  /** Words joined by '_', e.g. stripe_subscription. */
  subscription_source: z.string(),
  /** ISO-8601 UTC or null (never expires). */
  expires_at: z.string().nullable(),
});

const orderItemSchema = z.object({
  product_name: z.string(),
  quantity: z.number().int(),
  /** Minor units. */
  unit_amount: z.number().int(),
});

export const orderSchema = z.object({
  id: z.string(),
  order_number: z.string(),
  /** pending | paid | shipped | completed | cancelled | refunded */
  status: z.string(),
  /** Minor units. */
  total_amount: z.number().int(),
  currency: z.string(),
  created_at: z.string(),
  /** Its tax invoice once paid (/account/invoices/{number}). */
  invoice_number: z.string().nullable().optional(),
  /** Refunded so far, minor units (docs/billing.md, "The ledger, refunds and disputes"). */
  refunded_amount: z.number().int().optional(),
  items: z.array(orderItemSchema),
  /** shipping_address (null for digital orders), carrier, tracking_number, shipped_at. */
  ...fulfilmentFields,
  /**
   * Its checkout (docs/billing.md, "Unpaid orders"): open (payable now, checkout_url goes back to
   * it), expired (the payment window closed unpaid), abandoned (given up), or null (paid, or none).
   */
  checkout_state: z.enum(['open', 'expired', 'abandoned']).nullable().optional(),
  checkout_open: z.boolean().optional(),
  /** The same checkout (the provider's page), while it is open. */
  checkout_url: z.string().nullable().optional(),
  /** ISO-8601 UTC; null once paid. */
  checkout_expires_at: z.string().nullable().optional(),
});

export const dashboardSchema = z.object({
  subscriptions: z.array(subscriptionSchema),
  active_subscriptions: z.array(activeSubscriptionSchema),
  /** The newest orders only (at most 20); GET /api/v1/account/orders pages through them all. */
  orders: z.array(orderSchema),
  /** How many orders the user has in all. */
  orders_total: z.number().int().optional(),
  /** 'Enterprise' for a member or admin of an active enterprise account, else 'Individual'. */
  account_type: z.enum(['Individual', 'Enterprise']).optional(),
  /** The payment provider knows the user: "Manage billing" opens its billing portal. */
  billing_portal: z.boolean().optional(),
});

export type Subscription = z.infer<typeof subscriptionSchema>;
export type ActiveSubscription = z.infer<typeof activeSubscriptionSchema>;
export type Order = z.infer<typeof orderSchema>;
export type Dashboard = z.infer<typeof dashboardSchema>;

export const EMPTY_DASHBOARD: Dashboard = { subscriptions: [], active_subscriptions: [], orders: [] };

export function fetchDashboard(signal?: AbortSignal): Promise<Dashboard> {
  return apiFetch('/api/v1/account/dashboard', signal ? { schema: dashboardSchema, signal } : { schema: dashboardSchema });
}

export const dashboardQuery = () =>
  queryOptions({
    queryKey: accountKeys.dashboard(),
    queryFn: ({ signal }) => fetchDashboard(signal),
  });

export function useDashboard() {
  return useQuery(dashboardQuery());
}
