// PATCH /api/v1/admin/enquiries/{id} {handled}: the "Handled" mark (audited on the server); the
// answer is the enquiry as it now is, and the list reloads.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '@/lib/api';
import { z } from '@/lib/schema';
import { enquirySchema } from './getEnquiries';
import { invalidateTodo } from './getTodo';
import { adminKeys } from './keys';

const enquiryAnswerSchema = z.object({ enquiry: enquirySchema });

export async function updateEnquiry({ id, handled }: { id: string; handled: boolean }) {
  const answer = await apiFetch(`/api/v1/admin/enquiries/${encodeURIComponent(id)}`, {
    method: 'PATCH',
    body: { handled },
    schema: enquiryAnswerSchema,
  });
  return answer.enquiry;
}

export function useUpdateEnquiry() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateEnquiry,
    onSuccess: () => {
      invalidateTodo(queryClient);
      return queryClient.invalidateQueries({ queryKey: adminKeys.enquiries() });
    },
  });
}
