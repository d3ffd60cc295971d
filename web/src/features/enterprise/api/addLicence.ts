// POST /api/v1/admin/enterprise-accounts/{id}/licences {product_id, quantity}: seats of a product for the
// account; free seats go to members at once.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from '@/lib/schema';
import { apiFetch } from '@/lib/api';
import { enterpriseKeys } from './keys';
import { licenceSchema } from './schemas';

const licenceAnswerSchema = z.object({ licence: licenceSchema });

export function addLicence({ accountId, productId, quantity }: { accountId: string; productId: string; quantity: number }) {
  return apiFetch(`/api/v1/admin/enterprise-accounts/${encodeURIComponent(accountId)}/licences`, {
    method: 'POST',
    body: { product_id: productId, quantity },
    schema: licenceAnswerSchema,
  });
}

export function useAddLicence() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: addLicence,
    onSettled: () => queryClient.invalidateQueries({ queryKey: enterpriseKeys.admin() }),
  });
}
