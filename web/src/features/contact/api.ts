// POST /api/v1/contact: the Contact Sales form.
import { useMutation } from '@tanstack/react-query';
import { apiFetch } from '@/lib/api';
import { SALES_EMAIL } from '@/lib/company';

export interface ContactInput {
  name: string;
  email: string;
  company?: string;
  phone?: string;
  message: string;
}

/** The server's limits (docs/architecture.md), enforced in the form with maxLength too. */
export const CONTACT_LIMITS = {
  name: 200,
  email: 254,
  company: 200,
  phone: 50,
  message: 5000,
} as const;

export { SALES_EMAIL };

export function submitContact(input: ContactInput): Promise<{ id: string }> {
  return apiFetch<{ id: string }>('/api/v1/contact', { method: 'POST', body: input });
}

export function useSubmitContact() {
  return useMutation({ mutationFn: submitContact });
}
