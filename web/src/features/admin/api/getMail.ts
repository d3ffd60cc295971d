// GET /api/v1/admin/mail?status=&q=&page=: the mail outbox, newest first, filtered and paged by the
// server. Never a body (an account mail's link carries a token): kind, recipient, subject, status,
// attempts, last error, next attempt, created and sent times.
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { apiFetch } from '@/lib/api';
import { PAGE_SIZE, queryString, type ListQuery } from '@/lib/list';
import { z } from '@/lib/schema';
import { adminKeys } from './keys';
import { pageSchema } from './schemas';

export const MAIL_STATUSES = ['pending', 'sent', 'failed'] as const;

export const outboxMailSchema = z.object({
  id: z.string(),
  kind: z.string(),
  to: z.string(),
  subject: z.string(),
  /** pending | sent | failed */
  status: z.string(),
  attempts: z.number().int(),
  last_error: z.string().nullable(),
  /** null once sent */
  next_attempt_at: z.string().nullable(),
  created_at: z.string(),
  sent_at: z.string().nullable(),
});
export type OutboxMail = z.infer<typeof outboxMailSchema>;

const mailPageSchema = pageSchema(outboxMailSchema);

export function fetchMail(params: ListQuery, signal?: AbortSignal) {
  const query = queryString({ ...params, page_size: PAGE_SIZE });
  return apiFetch(`/api/v1/admin/mail${query}`, { schema: mailPageSchema, signal });
}

export function useMail(params: ListQuery) {
  return useQuery({
    queryKey: adminKeys.mailList(params),
    queryFn: ({ signal }) => fetchMail(params, signal),
    placeholderData: keepPreviousData,
    staleTime: 0,
  });
}
