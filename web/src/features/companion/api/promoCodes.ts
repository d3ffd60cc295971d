// GET /api/v1/admin/wirewrite/promo-codes?page= (newest first, 50 a page).
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { pageSchema, z } from '@/lib/schema';
import { apiFetch } from '@/lib/api';
import { PAGE_SIZE, queryString, type ListQuery } from '@/lib/list';
import { companionKeys } from './keys';

export const promoCodeSchema = z.object({
  id: z.string(),
  code: z.string(),
  description: z.string(),
  entitlement: z.string(),
  duration_months: z.number().int().nullable(),
  max_uses: z.number().int().nullable(),
  uses_count: z.number().int(),
  expires_at: z.string().nullable(),
  active: z.boolean(),
  created_at: z.string(),
});

export type PromoCode = z.infer<typeof promoCodeSchema>;

export const promoCodePageSchema = pageSchema(promoCodeSchema);

export type PromoCodePage = z.infer<typeof promoCodePageSchema>;

export function fetchPromoCodes(params: ListQuery, signal?: AbortSignal): Promise<PromoCodePage> {
  const path = `/api/v1/admin/wirewrite/promo-codes${queryString({ ...params, page_size: PAGE_SIZE })}`;
  return apiFetch(path, signal ? { schema: promoCodePageSchema, signal } : { schema: promoCodePageSchema });
}

export function usePromoCodes(params: ListQuery) {
  return useQuery({
    queryKey: companionKeys.promoCodes(params),
    queryFn: ({ signal }) => fetchPromoCodes(params, signal),
    placeholderData: keepPreviousData,
  });
}
