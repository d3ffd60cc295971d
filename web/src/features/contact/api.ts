// POST /api/v1/contact: the Contact Sales form.
import { useMutation } from '@tanstack/react-query';
import { z } from '@/lib/schema';
import { apiFetch } from '@/lib/api';
import { SALES_EMAIL } from '@/lib/company';

/** The server's limits (docs/architecture.md), enforced in the form with maxLength too. */
export const CONTACT_LIMITS = {
  name: 200,
  email: 254,
  company: 200,
  phone: 50,
  message: 5000,
} as const;

const required = (max: number) =>
  z.string().trim().min(1, 'This field is required.').max(max, `Must be at most ${String(max)} characters.`);
// An optional field: trimmed, and left out of the request when empty.
const optional = (max: number) =>
  z
    .string()
    .trim()
    .max(max, `Must be at most ${String(max)} characters.`)
    .transform((value) => value || undefined);

/** The form as the server takes it, with the server's own messages (the server checks again). */
export const contactInputSchema = z.object({
  name: required(CONTACT_LIMITS.name),
  email: required(CONTACT_LIMITS.email).pipe(z.email('Enter a valid email address.')),
  company: optional(CONTACT_LIMITS.company),
  phone: optional(CONTACT_LIMITS.phone),
  message: required(CONTACT_LIMITS.message),
});

export type ContactInput = z.output<typeof contactInputSchema>;

export { SALES_EMAIL };

const contactCreatedSchema = z.object({ id: z.string() });

export function submitContact(input: ContactInput): Promise<{ id: string }> {
  return apiFetch('/api/v1/contact', { method: 'POST', body: input, schema: contactCreatedSchema });
}

export function useSubmitContact() {
  return useMutation({ mutationFn: submitContact });
}
