// GET /api/v1/admin/stats/series: the dashboard charts in one call. Every bucket is present,
// oldest first, in New Zealand days and months (zero when nothing happened).
import { useQuery } from '@tanstack/react-query';
import { apiFetch } from '@/lib/api';
import { z } from '@/lib/schema';
import { adminKeys } from './keys';

const amount = z.number().int();

export const seriesSchema = z.object({
  time_zone: z.string(),
  currencies: z.array(z.string()),
  /** The payments ledger's net (money in less refunds and lost disputes) per currency, minor units; 12 months. */
  revenue_by_month: z.array(z.object({ month: z.string(), starts_at: z.string(), revenue: z.record(z.string(), amount) })),
  /** Paid orders placed on each New Zealand day; 30 days. */
  orders_by_day: z.array(z.object({ day: z.string(), starts_at: z.string(), orders: amount })),
  /** Subscriptions begun, and ended (cancelled or expired), per month; 12 months. */
  subscriptions_by_month: z.array(z.object({ month: z.string(), starts_at: z.string(), new: amount, cancelled: amount })),
});
export type StatsSeries = z.infer<typeof seriesSchema>;

export function fetchStatsSeries(signal?: AbortSignal): Promise<StatsSeries> {
  return apiFetch('/api/v1/admin/stats/series', { schema: seriesSchema, signal });
}

export function useStatsSeries() {
  return useQuery({ queryKey: adminKeys.series(), queryFn: ({ signal }) => fetchStatsSeries(signal), staleTime: 0 });
}
