// The back-office API's shapes (docs/openapi.yaml, "Back office"), checked with zod on arrival.
import { z } from '@/lib/schema';
import { fulfilmentFields } from '@/lib/shipping';

export { pageSchema } from '@/lib/schema';

export const CURRENCIES = ['NZD', 'AUD', 'USD'] as const;
export const FREQUENCY_VALUES = [1, 3, 6, 12] as const;
export const FREQUENCY_UNITS = ['month', 'year'] as const;

export const planSchema = z.object({
  id: z.string(),
  product_id: z.string(),
  name: z.string(),
  /** Minor units. */
  price_amount: z.number().int(),
  currency: z.string(),
  billing_frequency_value: z.number().int(),
  billing_frequency_unit: z.string(),
  sort_order: z.number().int(),
  /** Free days before the first charge, 0-90 (absent from an older server). */
  trial_days: z.number().int().optional(),
});
export type AdminPlan = z.infer<typeof planSchema>;

export const adminProductSchema = z.object({
  id: z.string(),
  slug: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  description_detail: z.string().nullable(),
  meta_keywords: z.string().nullable(),
  type: z.string(),
  icon_url: z.string().nullable(),
  picture_url: z.string().nullable(),
  stock_quantity: z.number().int().nullable(),
  track_inventory: z.boolean(),
  is_active: z.boolean(),
  features: z.array(z.string()),
  action_type: z.string().nullable(),
  action_url: z.string().nullable(),
  show_pricing: z.boolean(),
  /** Minor units, or null. */
  price_nzd: z.number().int().nullable(),
  billing_interval: z.string().nullable(),
  created_at: z.string(),
  plans: z.array(planSchema),
});
export type AdminProduct = z.infer<typeof adminProductSchema>;

export const imageSchema = z.object({
  url: z.string(),
  name: z.string(),
  folder: z.string(),
  // Uploads only: the stored picture's size and its widths as an HTML srcset.
  width: z.number().optional(),
  height: z.number().optional(),
  srcset: z.string().optional(),
});

export const subscriptionRowSchema = z.object({
  id: z.string(),
  user_id: z.string(),
  user_email: z.string().nullable(),
  product_id: z.string(),
  product_name: z.string(),
  pricing_plan_id: z.string().nullable(),
  plan_name: z.string().nullable(),
  status: z.string(),
  payment_provider: z.string(),
  current_period_end: z.string().nullable(),
  cancel_at_period_end: z.boolean(),
  created_at: z.string(),
  /** When its renewal failed (status past_due), ISO-8601 UTC. */
  past_due_since: z.string().nullable().optional(),
  /**
   * What staff may do now (the lifecycle table): cancel_at_period_end, cancel_now (resume and
   * change_plan are the customer's); the row offers only these.
   */
  allowed_actions: z.array(z.string()).optional(),
});
export type SubscriptionRow = z.infer<typeof subscriptionRowSchema>;

/** The statuses an order has (docs/billing.md, "Order lifecycle"); staff move it only as `allowed_statuses` says. */
export type OrderStatus = 'pending' | 'paid' | 'shipped' | 'completed' | 'cancelled';

export const orderRowSchema = z.object({
  id: z.string(),
  order_number: z.string(),
  user_id: z.string().nullable(),
  customer_email: z.string().nullable(),
  status: z.string(),
  /** Minor units. */
  total_amount: z.number().int(),
  currency: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
  paid_after_cancellation: z.boolean(),
  /** Minor units refunded so far (pending and succeeded refunds). */
  refunded_amount: z.number().int(),
  /** A dispute (chargeback) was opened for its payment. */
  disputed: z.boolean(),
  /** A payment arrived whose amount or currency is not the order's: it is not marked paid and has no invoice. */
  amount_mismatch: z.boolean(),
  /** A payment arrived for the order already paid another way (Mark as paid, another payment): staff return it. */
  payment_to_return: z.boolean(),
  /** A line of a physical product: the order can ship. */
  has_physical_items: z.boolean(),
  /** The statuses a PATCH may move it to from here (the lifecycle table); the page offers only these. */
  allowed_statuses: z.array(z.string()),
  /** "Cancel order" (POST .../cancel) is allowed: paid, through the payment provider. */
  cancellable: z.boolean(),
});
export type OrderRow = z.infer<typeof orderRowSchema>;

export const refundSchema = z.object({
  id: z.string(),
  amount: z.number().int(),
  currency: z.string(),
  reason: z.string().nullable(),
  restock: z.boolean(),
  /** requested | pending | succeeded | failed | canceled */
  status: z.string(),
  /** staff | provider (made in the provider's dashboard) */
  source: z.string(),
  provider_refund_id: z.string().nullable(),
  actor_email: z.string().nullable(),
  /** It returns this late payment (one made for the order already paid), not the order's money. */
  late_payment_id: z.string().nullable(),
  created_at: z.string(),
});
export type Refund = z.infer<typeof refundSchema>;

export const orderDetailSchema = orderRowSchema.extend({
  /** Minor units that can still be refunded. */
  refundable_amount: z.number().int(),
  items: z.array(
    z.object({
      id: z.string(),
      product_id: z.string().nullable(),
      product_name: z.string(),
      quantity: z.number().int(),
      unit_amount: z.number().int(),
      /** Units refunded by line so far, and of those returned to stock. */
      refunded_quantity: z.number().int(),
      restocked_quantity: z.number().int(),
    }),
  ),
  history: z.array(
    z.object({
      at: z.string(),
      from_status: z.string().nullable(),
      to_status: z.string(),
      /** staff | provider | system */
      source: z.string(),
      actor_email: z.string().nullable(),
      note: z.string().nullable(),
    }),
  ),
  late_payments: z.array(
    z.object({
      id: z.string(),
      at: z.string(),
      amount: z.number().int(),
      currency: z.string(),
      provider: z.string(),
      provider_reference: z.string().nullable(),
      /** after_cancellation (refund or reinstate the order) | already_paid (return it: the order stays paid) */
      reason: z.string(),
      /** Of an already_paid payment: what has gone back to the payer. */
      returned_amount: z.number().int(),
    }),
  ),
  payment_to_return: z.boolean(),
  refunds: z.array(refundSchema),
  /** Its tax invoice and credit notes, in issue order (docs/billing.md, "Tax invoices"). */
  invoices: z.array(z.object({ number: z.string(), kind: z.string(), total_amount: z.number().int() })).default([]),
  /** shipping_address (a snapshot from checkout, null for digital), carrier, tracking_number, shipped_at. */
  ...fulfilmentFields,
});
export type OrderDetail = z.infer<typeof orderDetailSchema>;

export const auditEntrySchema = z.object({
  id: z.string(),
  created_at: z.string(),
  action: z.string(),
  actor: z.object({ id: z.string().nullable(), email: z.string().nullable(), role: z.string(), aal: z.string().nullable() }),
  target_type: z.string(),
  target_id: z.string().nullable(),
  before: z.unknown(),
  after: z.unknown(),
  detail: z.unknown(),
  client_address: z.string().nullable(),
});
export type AuditEntry = z.infer<typeof auditEntrySchema>;
