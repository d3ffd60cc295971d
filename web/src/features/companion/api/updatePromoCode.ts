// PATCH /api/v1/admin/wirewrite/promo-codes/{id} {active}: Activate / Deactivate.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '@/lib/api';
import { companionKeys } from './keys';
import { promoCodeSchema, type PromoCode } from './promoCodes';

export function setPromoCodeActive({ id, active }: { id: string; active: boolean }): Promise<PromoCode> {
  return apiFetch(`/api/v1/admin/wirewrite/promo-codes/${encodeURIComponent(id)}`, {
    method: 'PATCH',
    body: { active },
    schema: promoCodeSchema,
  });
}

export function useSetPromoCodeActive() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: setPromoCodeActive,
    onSettled: () => client.invalidateQueries({ queryKey: companionKeys.all }),
  });
}
