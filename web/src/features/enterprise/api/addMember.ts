// POST /api/v1/enterprise/members {email}: adds a person who already has an account to the team.
// Refusals carry the spec's messages: 404 user_not_found 'User not found. They must create an
// account first.', 409 license_limit_reached 'License limit reached ({max} licenses)', 409
// already_member, 409 enterprise_account_inactive.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from '@/lib/schema';
import { apiFetch } from '@/lib/api';
import { enterpriseKeys } from './keys';
import { memberSchema } from './schemas';

const addMemberSchema = z.object({ member: memberSchema });

export function addMember(email: string) {
  return apiFetch('/api/v1/enterprise/members', { method: 'POST', body: { email }, schema: addMemberSchema });
}

export function useAddMember() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: addMember,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: enterpriseKeys.team() }),
  });
}
