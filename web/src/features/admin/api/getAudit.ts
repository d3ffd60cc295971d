// GET /api/v1/admin/audit?actor=&action=&target=&page=: the audit log, newest first. actor: an
// email (part of it) or a user id; action: an exact action name; target: a target type or id.
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { apiFetch } from '@/lib/api';
import { PAGE_SIZE, queryString, type ListQuery } from '@/lib/list';
import { adminKeys } from './keys';
import { auditEntrySchema, pageSchema } from './schemas';

const auditPageSchema = pageSchema(auditEntrySchema);

export function fetchAudit(params: ListQuery, signal?: AbortSignal) {
  const query = queryString({ ...params, page_size: PAGE_SIZE });
  return apiFetch(`/api/v1/admin/audit${query}`, { schema: auditPageSchema, signal });
}

export function useAudit(params: ListQuery) {
  return useQuery({
    queryKey: adminKeys.audit(params),
    queryFn: ({ signal }) => fetchAudit(params, signal),
    placeholderData: keepPreviousData,
    staleTime: 0,
  });
}
