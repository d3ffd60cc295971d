// PATCH /api/v1/admin/enterprise-accounts/{id}/licences/{licenceId} {quantity}: never below the seats in
// use (422 with fields.quantity).
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from '@/lib/schema';
import { apiFetch } from '@/lib/api';
import { enterpriseKeys } from './keys';
import { licenceSchema } from './schemas';

const licenceAnswerSchema = z.object({ licence: licenceSchema });

export function changeLicence({ accountId, licenceId, quantity }: { accountId: string; licenceId: string; quantity: number }) {
  return apiFetch(`/api/v1/admin/enterprise-accounts/${encodeURIComponent(accountId)}/licences/${encodeURIComponent(licenceId)}`, {
    method: 'PATCH',
    body: { quantity },
    schema: licenceAnswerSchema,
  });
}

export function useChangeLicence() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: changeLicence,
    onSettled: () => queryClient.invalidateQueries({ queryKey: enterpriseKeys.admin() }),
  });
}
