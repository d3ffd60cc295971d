// DELETE /api/v1/enterprise/members/{id}: removes a member (never the admin); their seats go to
// members waiting for one.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from '@/lib/schema';
import { apiFetch } from '@/lib/api';
import { enterpriseKeys } from './keys';

const removedSchema = z.object({ id: z.string(), deleted: z.boolean() });

export function removeMember(memberId: string) {
  return apiFetch(`/api/v1/enterprise/members/${encodeURIComponent(memberId)}`, { method: 'DELETE', schema: removedSchema });
}

export function useRemoveMember() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: removeMember,
    onSettled: () => queryClient.invalidateQueries({ queryKey: enterpriseKeys.team() }),
  });
}
