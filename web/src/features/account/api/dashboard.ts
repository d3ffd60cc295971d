// GET /api/v1/account/dashboard (docs/billing.md): the dashboard in one call, the caller's rows only.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiFetch } from '@/lib/api';
import { accountKeys } from './keys';

export interface DashboardSubscription {
  id: string;
  /** active | trialing | pending | cancelled | expired */
  status: string;
  payment_provider: string;
  /** ISO-8601 UTC or null. */
  current_period_end: string | null;
  cancel_at_period_end: boolean;
  created_at: string;
  product: { id: string; slug: string; name: string; price_nzd: number; billing_interval: string | null };
  plan: {
    name: string;
    price_amount: number;
    currency: string;
    billing_frequency_value: number;
    billing_frequency_unit: string;
  } | null;
}

/** The spec's active-subscription result (section 3). */
export interface ActiveSubscription {
  product_name: string;
  product_slug: string;
  /** active | trial (anything else is shown as inactive). */
  status: string;
  /** Words joined by '_', e.g. stripe_subscription. */
  subscription_source: string;
  /** ISO-8601 UTC or null (never expires). */
  expires_at: string | null;
}

export interface OrderItem {
  product_name: string;
  quantity: number;
  /** Minor units. */
  unit_amount: number;
}

export interface Order {
  id: string;
  order_number: string;
  /** pending | paid | shipped | completed | cancelled */
  status: string;
  /** Minor units. */
  total_amount: number;
  currency: string;
  created_at: string;
  items: OrderItem[];
}

export interface Dashboard {
  subscriptions: DashboardSubscription[];
  active_subscriptions: ActiveSubscription[];
  orders: Order[];
}

export const EMPTY_DASHBOARD: Dashboard = { subscriptions: [], active_subscriptions: [], orders: [] };

export function fetchDashboard(signal?: AbortSignal): Promise<Dashboard> {
  return apiFetch<Dashboard>('/api/v1/account/dashboard', signal ? { signal } : {});
}

export const dashboardQuery = () =>
  queryOptions({
    queryKey: accountKeys.dashboard(),
    queryFn: ({ signal }) => fetchDashboard(signal),
  });

export function useDashboard() {
  return useQuery(dashboardQuery());
}
