// POST /api/v1/admin/enterprise-accounts {company_name, billing_email, admin_email}: a new account. A new
// admin email gets a pre-confirmed user and an invitation email (admin_invited: true).
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from '@/lib/schema';
import { apiFetch } from '@/lib/api';
import { enterpriseKeys } from './keys';
import { accountDetailsSchema } from './schemas';

const createdSchema = accountDetailsSchema.extend({ admin_invited: z.boolean() });

export interface CreateAccountInput {
  company_name: string;
  billing_email: string;
  admin_email: string;
}

export function createAccount(input: CreateAccountInput) {
  return apiFetch('/api/v1/admin/enterprise-accounts', { method: 'POST', body: input, schema: createdSchema });
}

export function useCreateAccount() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createAccount,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: enterpriseKeys.admin() }),
  });
}
