// PATCH /api/v1/admin/wirewrite/workers/{id} {entitlement}: upgrade to lifetime pro or downgrade
// to free (pro_expires_at cleared either way).
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '@/lib/api';
import { companionKeys } from './keys';
import { workerSchema, type Worker } from './workers';

export function setWorkerEntitlement({ id, entitlement }: { id: string; entitlement: 'free' | 'pro' }): Promise<Worker> {
  return apiFetch(`/api/v1/admin/wirewrite/workers/${encodeURIComponent(id)}`, {
    method: 'PATCH',
    body: { entitlement },
    schema: workerSchema,
  });
}

export function useSetWorkerEntitlement() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: setWorkerEntitlement,
    onSettled: () => client.invalidateQueries({ queryKey: companionKeys.all }),
  });
}
