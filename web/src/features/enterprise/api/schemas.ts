// The shapes the enterprise API answers with (docs/openapi.yaml, "Enterprise"), shared by its
// endpoints: an account, a team member, a licence, and an account with both.
import { z } from '@/lib/schema';

export const accountSchema = z.object({
  id: z.string(),
  company_name: z.string(),
  billing_email: z.string(),
  admin: z.object({ id: z.string(), email: z.string().nullable() }),
  max_licenses: z.number().int(),
  is_active: z.boolean(),
  created_at: z.string(),
  /** Every member, the admin included. */
  member_count: z.number().int(),
  user_count: z.number().int(),
  license_count: z.number().int(),
});

export const memberSchema = z.object({
  id: z.string(),
  user_id: z.string(),
  email: z.string().nullable(),
  full_name: z.string().nullable(),
  /** admin | member */
  role: z.string(),
  added_at: z.string(),
  /** Products whose licence seat this member holds. */
  seat_product_ids: z.array(z.string()),
});

export const licenceSchema = z.object({
  id: z.string(),
  product: z.object({ id: z.string(), name: z.string(), slug: z.string() }),
  quantity: z.number().int(),
  used_count: z.number().int(),
  created_at: z.string(),
});

export const accountDetailsSchema = z.object({
  account: accountSchema,
  members: z.array(memberSchema),
  licences: z.array(licenceSchema),
});

export type EnterpriseAccount = z.infer<typeof accountSchema>;
export type EnterpriseMember = z.infer<typeof memberSchema>;
export type EnterpriseLicence = z.infer<typeof licenceSchema>;
export type EnterpriseAccountDetails = z.infer<typeof accountDetailsSchema>;
