// POST /api/v1/admin/mail/{id}/retry: a failed mail back to pending, due now (attempts kept); the
// answer is the mail as it now is, and the outbox list reloads.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '@/lib/api';
import { z } from '@/lib/schema';
import { outboxMailSchema } from './getMail';
import { invalidateTodo } from './getTodo';
import { adminKeys } from './keys';

const retryAnswerSchema = z.object({ mail: outboxMailSchema });

export async function retryMail(id: string) {
  const answer = await apiFetch(`/api/v1/admin/mail/${encodeURIComponent(id)}/retry`, { method: 'POST', schema: retryAnswerSchema });
  return answer.mail;
}

export function useRetryMail() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: retryMail,
    onSuccess: () => {
      invalidateTodo(queryClient);
      return queryClient.invalidateQueries({ queryKey: adminKeys.mail() });
    },
  });
}
