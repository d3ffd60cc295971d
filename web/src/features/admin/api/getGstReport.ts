// GET /api/v1/admin/reports/gst?from=YYYY-MM-DD&to=YYYY-MM-DD (New Zealand dates, inclusive): the
// period's sums per currency from the register (docs/billing.md, "GST"). 422 for a bad or
// reversed range. No placeholder from another range: a report is for its dates or not shown.
import { useQuery } from '@tanstack/react-query';
import { apiFetch } from '@/lib/api';
import { queryString } from '@/lib/list';
import { z } from '@/lib/schema';
import { adminKeys } from './keys';

export const gstCurrencySchema = z.object({
  currency: z.string(),
  invoiced_amount: z.number().int(),
  credited_amount: z.number().int(),
  net_amount: z.number().int(),
  gst_amount: z.number().int(),
  zero_rated_amount: z.number().int(),
  invoice_count: z.number().int(),
  credit_note_count: z.number().int(),
});
export type GstCurrency = z.infer<typeof gstCurrencySchema>;

export const gstReportSchema = z.object({
  from: z.string(),
  to: z.string(),
  currencies: z.array(gstCurrencySchema),
});
export type GstReport = z.infer<typeof gstReportSchema>;

export function fetchGstReport(from: string, to: string, signal?: AbortSignal) {
  return apiFetch(`/api/v1/admin/reports/gst${queryString({ from, to })}`, { schema: gstReportSchema, signal });
}

export function useGstReport(from: string, to: string) {
  return useQuery({
    queryKey: adminKeys.gstReport(from, to),
    queryFn: ({ signal }) => fetchGstReport(from, to, signal),
    staleTime: 0,
  });
}
