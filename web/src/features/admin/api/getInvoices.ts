// GET /api/v1/admin/invoices?q=&kind=&from=&to=&page=: the register of tax invoices, credit notes
// and debit notes, newest number first, searched (number, order number, buyer name and email),
// filtered by kind and issue date (New Zealand dates, inclusive) and paged by the server. Amounts
// are minor units; a note's are positive (its kind says which way). 422 for a bad kind or date.
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { apiFetch } from '@/lib/api';
import { PAGE_SIZE, queryString, type ListQuery } from '@/lib/list';
import { z } from '@/lib/schema';
import { adminKeys } from './keys';
import { pageSchema } from './schemas';

export const registerEntrySchema = z.object({
  number: z.string(),
  /** invoice | credit_note | debit_note */
  kind: z.string(),
  issued_at: z.string(),
  buyer_name: z.string().nullable(),
  buyer_email: z.string().nullable(),
  order_id: z.string().nullable(),
  order_number: z.string().nullable(),
  subscription_id: z.string().nullable(),
  currency: z.string(),
  total_amount: z.number().int(),
  gst_amount: z.number().int(),
  zero_rated: z.boolean(),
  /** The invoice a note adjusts. */
  adjusts_number: z.string().nullable(),
});
export type RegisterEntry = z.infer<typeof registerEntrySchema>;

const registerPageSchema = pageSchema(registerEntrySchema);

export function fetchInvoices(params: ListQuery, signal?: AbortSignal) {
  const query = queryString({ ...params, page_size: PAGE_SIZE });
  return apiFetch(`/api/v1/admin/invoices${query}`, { schema: registerPageSchema, signal });
}

export function useInvoices(params: ListQuery) {
  return useQuery({
    queryKey: adminKeys.invoiceList(params),
    queryFn: ({ signal }) => fetchInvoices(params, signal),
    placeholderData: keepPreviousData,
    staleTime: 0,
  });
}
