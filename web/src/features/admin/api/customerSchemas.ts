// The staff customers screen's shapes (docs/openapi.yaml, "Customers"), checked with zod on arrival.
import { z } from '@/lib/schema';

export const customerRowSchema = z.object({
  id: z.string(),
  /** Null for a closed account (and for a phone-only one). */
  email: z.string().nullable(),
  full_name: z.string().nullable(),
  created_at: z.string(),
  last_sign_in_at: z.string().nullable(),
  email_confirmed_at: z.string().nullable(),
  closed: z.boolean(),
  closed_at: z.string().nullable(),
  is_admin: z.boolean(),
  two_factor: z.boolean(),
});
export type CustomerRow = z.infer<typeof customerRowSchema>;

export const customerDetailSchema = z.object({
  customer: customerRowSchema.extend({
    phone: z.string().nullable(),
    confirmation_sent_at: z.string().nullable(),
    recovery_sent_at: z.string().nullable(),
    invited_at: z.string().nullable(),
    banned_until: z.string().nullable(),
    admin_since: z.string().nullable(),
  }),
  orders: z.array(
    z.object({
      id: z.string(),
      order_number: z.string(),
      status: z.string(),
      total_amount: z.number().int(),
      currency: z.string(),
      created_at: z.string(),
    }),
  ),
  subscriptions: z.array(
    z.object({
      id: z.string(),
      product_name: z.string(),
      plan_name: z.string().nullable(),
      status: z.string(),
      current_period_end: z.string().nullable(),
      cancel_at_period_end: z.boolean(),
      created_at: z.string(),
    }),
  ),
  invoices: z.array(
    z.object({
      id: z.string(),
      number: z.string(),
      kind: z.string(),
      total_amount: z.number().int(),
      currency: z.string(),
      order_id: z.string().nullable(),
      issued_at: z.string(),
    }),
  ),
  enterprise: z.array(z.object({ account_id: z.string(), company_name: z.string(), role: z.string(), is_active: z.boolean() })),
  wirewrite: z
    .object({
      id: z.string(),
      full_name: z.string().nullable(),
      email: z.string().nullable(),
      ewrb_licence_number: z.string().nullable(),
      entitlement: z.string(),
      pro_expires_at: z.string().nullable(),
      last_active_at: z.string().nullable(),
      created_at: z.string(),
    })
    .nullable(),
  factors: z.array(
    z.object({
      id: z.string(),
      friendly_name: z.string().nullable(),
      factor_type: z.string(),
      status: z.string(),
      created_at: z.string(),
      updated_at: z.string(),
    }),
  ),
  sign_ins: z.array(z.object({ id: z.string(), action: z.string(), created_at: z.string(), client_address: z.string().nullable() })),
});
export type CustomerDetail = z.infer<typeof customerDetailSchema>;

/** How a closed account is shown wherever its name or address would be (issue 24). */
export const CLOSED_ACCOUNT = 'Closed account';

/** The name to show for a customer: their name, else their address, else "Closed account". */
export function customerName(row: Pick<CustomerRow, 'full_name' | 'email' | 'closed'>): string {
  if (row.closed) return CLOSED_ACCOUNT;
  const name = row.full_name?.trim();
  if (name) return name;
  return row.email ?? 'No email address';
}
