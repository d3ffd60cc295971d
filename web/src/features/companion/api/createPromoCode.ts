// POST /api/v1/admin/wirewrite/promo-codes: 201 with the code; 422 with fields; 409 promo_code_taken.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '@/lib/api';
import { z } from '@/lib/schema';
import { companionKeys } from './keys';
import { promoCodeSchema, type PromoCode } from './promoCodes';

/** The form as the server takes it: empty optional numbers are null (lifetime / unlimited / never). */
export interface NewPromoCode {
  code: string;
  description: string;
  duration_months: number | null;
  max_uses: number | null;
  expires_days: number | null;
}

const optionalCount = (label: string) =>
  z
    .string()
    .trim()
    .refine((v) => v === '' || (/^\d+$/.test(v) && Number(v) >= 1), `${label} must be a whole number of at least 1, or empty.`);

/** The form's own checks (the server checks again). */
export const promoCodeFormSchema = z.object({
  code: z.string().trim().min(1, 'Code is required.').max(40, 'At most 40 characters.').regex(/^[A-Z0-9_-]+$/, 'Use capital letters, digits, - and _ only.'),
  description: z.string().trim().min(1, 'Description is required.').max(500, 'At most 500 characters.'),
  duration_months: optionalCount('Duration'),
  max_uses: optionalCount('Max uses'),
  expires_days: optionalCount('Expires in'),
});

export type PromoCodeForm = z.infer<typeof promoCodeFormSchema>;

export function toNewPromoCode(form: PromoCodeForm): NewPromoCode {
  const count = (v: string) => (v.trim() === '' ? null : Number(v));
  return {
    code: form.code.trim(),
    description: form.description.trim(),
    duration_months: count(form.duration_months),
    max_uses: count(form.max_uses),
    expires_days: count(form.expires_days),
  };
}

export function createPromoCode(body: NewPromoCode): Promise<PromoCode> {
  return apiFetch('/api/v1/admin/wirewrite/promo-codes', { method: 'POST', body, schema: promoCodeSchema });
}

export function useCreatePromoCode() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: createPromoCode,
    onSuccess: () => client.invalidateQueries({ queryKey: companionKeys.all }),
  });
}
