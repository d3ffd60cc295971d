// GET /api/v1/admin/stats: the six statistic cards of /admin in one call.
import { useQuery } from '@tanstack/react-query';
import { apiFetch } from '@/lib/api';
import { z } from '@/lib/schema';
import { adminKeys } from './keys';

export const statsSchema = z.object({
  total_users: z.number().int(),
  total_products: z.number().int(),
  active_subscriptions: z.number().int(),
  total_orders: z.number().int(),
  enterprise_accounts: z.number().int(),
  /** The payments ledger's NZD net (payments and renewals less refunds), last 30 New Zealand days, minor units. */
  recent_revenue: z.number().int(),
  /** The same, all time. */
  total_revenue: z.number().int(),
  /** Every currency: {NZD, AUD, USD}, minor units. */
  recent_revenue_by_currency: z.record(z.string(), z.number().int()),
  total_revenue_by_currency: z.record(z.string(), z.number().int()),
  currency: z.string(),
});
export type AdminStats = z.infer<typeof statsSchema>;

export const EMPTY_STATS: AdminStats = {
  total_users: 0,
  total_products: 0,
  active_subscriptions: 0,
  total_orders: 0,
  enterprise_accounts: 0,
  recent_revenue: 0,
  total_revenue: 0,
  recent_revenue_by_currency: {},
  total_revenue_by_currency: {},
  currency: 'NZD',
};

export function fetchStats(signal?: AbortSignal): Promise<AdminStats> {
  return apiFetch('/api/v1/admin/stats', { schema: statsSchema, signal });
}

export function useAdminStats() {
  return useQuery({ queryKey: adminKeys.stats(), queryFn: ({ signal }) => fetchStats(signal), staleTime: 0 });
}
