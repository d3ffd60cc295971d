// Tax invoices (docs/billing.md, "Tax invoices"): GET /api/v1/account/invoices (the caller's,
// newest first, paged) and GET /api/v1/account/invoices/{number} (the owner's, or staff's); staff
// opening one from an order use GET /api/v1/admin/invoices/{number}.
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { pageSchema, z } from '@/lib/schema';
import { apiFetch } from '@/lib/api';
import { accountKeys } from './keys';
import { shippingAddressSchema } from '@/lib/shipping';

export const INVOICES_PAGE_SIZE = 20;

export const invoiceSummarySchema = z.object({
  number: z.string(),
  kind: z.string(),
  issued_at: z.string(),
  currency: z.string(),
  /** Minor units, GST-inclusive. */
  total_amount: z.number().int(),
  gst_amount: z.number().int(),
  order_id: z.string().nullable(),
});
export type InvoiceSummary = z.infer<typeof invoiceSummarySchema>;

const invoicesPageSchema = pageSchema(invoiceSummarySchema);

export const invoiceSchema = z.object({
  title: z.string(),
  number: z.string(),
  /** invoice | credit_note */
  kind: z.string(),
  issued_at: z.string(),
  /** The New Zealand calendar date it was issued (YYYY-MM-DD). */
  issue_date: z.string(),
  supplier: z.object({ legal_name: z.string(), address: z.string(), gst_number: z.string() }),
  buyer: z.object({
    name: z.string().nullable(),
    email: z.string().nullable(),
    /** Where the goods went: the order's shipping address snapshot, null for a digital supply. */
    address: shippingAddressSchema.nullable().optional(),
  }),
  lines: z.array(z.object({ description: z.string(), quantity: z.number().int(), amount: z.number().int() })),
  currency: z.string(),
  total_amount: z.number().int(),
  gst_amount: z.number().int(),
  zero_rated: z.boolean(),
  gst_note: z.string(),
  order_number: z.string().nullable(),
  adjusts: z.string().nullable(),
  reason: z.string().nullable(),
});
export type Invoice = z.infer<typeof invoiceSchema>;

export function useInvoices(page: number) {
  return useQuery({
    queryKey: accountKeys.invoices(page),
    queryFn: ({ signal }) =>
      apiFetch(`/api/v1/account/invoices?page=${String(page)}&page_size=${String(INVOICES_PAGE_SIZE)}`, {
        schema: invoicesPageSchema,
        signal,
      }),
    placeholderData: keepPreviousData,
  });
}

/** One invoice; `staff` reads it through the staff endpoint (any customer's). */
export function useInvoice(number: string, staff: boolean) {
  const base = staff ? '/api/v1/admin/invoices/' : '/api/v1/account/invoices/';
  return useQuery({
    queryKey: accountKeys.invoice(number, staff),
    queryFn: ({ signal }) => apiFetch(base + encodeURIComponent(number), { schema: invoiceSchema, signal }),
    retry: false,
  });
}
