// GET /api/v1/admin/audit?actor=&action=&target=&page=: the audit log, newest first.
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { apiFetch } from '@/lib/api';
import { adminKeys } from './keys';
import { ADMIN_PAGE_SIZE, auditEntrySchema, pageSchema, queryString } from './schemas';

const auditPageSchema = pageSchema(auditEntrySchema);

export interface AuditListParams {
  page: number;
  /** Actor email (part of it) or user id. */
  actor: string;
  /** An exact action name. */
  action: string;
  /** A target type or a target id. */
  target: string;
}

export function fetchAudit({ page, actor, action, target }: AuditListParams, signal?: AbortSignal) {
  const query = queryString({ page, page_size: ADMIN_PAGE_SIZE, actor, action, target });
  return apiFetch(`/api/v1/admin/audit${query}`, { schema: auditPageSchema, signal });
}

export function useAudit(params: AuditListParams) {
  return useQuery({
    queryKey: adminKeys.audit({ ...params }),
    queryFn: ({ signal }) => fetchAudit(params, signal),
    placeholderData: keepPreviousData,
    staleTime: 0,
  });
}
