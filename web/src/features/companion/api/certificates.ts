// GET /api/v1/admin/wirewrite/certificates?q=&status=&sort=&dir=&page= (searched, filtered,
// sorted and paged by the server; counts for the heading).
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { pageSchema, z } from '@/lib/schema';
import { apiFetch } from '@/lib/api';
import { PAGE_SIZE, queryString, type ListQuery } from '@/lib/list';
import { companionKeys } from './keys';

export const certificateSchema = z.object({
  id: z.string(),
  worker_id: z.string(),
  certificate_number: z.string().nullable(),
  site_location: z.string().nullable(),
  status: z.string(),
  created_at: z.string(),
  issued_at: z.string().nullable(),
  worker: z.object({ full_name: z.string().nullable(), email: z.string().nullable() }),
});

export type Certificate = z.infer<typeof certificateSchema>;

export const certificatePageSchema = pageSchema(certificateSchema).extend({
  counts: z.object({ all: z.number().int(), draft: z.number().int(), issued: z.number().int() }),
});

export type CertificatePage = z.infer<typeof certificatePageSchema>;

export function fetchCertificates(params: ListQuery, signal?: AbortSignal): Promise<CertificatePage> {
  const path = `/api/v1/admin/wirewrite/certificates${queryString({ ...params, page_size: PAGE_SIZE })}`;
  return apiFetch(path, signal ? { schema: certificatePageSchema, signal } : { schema: certificatePageSchema });
}

export function useCertificates(params: ListQuery) {
  return useQuery({
    queryKey: companionKeys.certificates(params),
    queryFn: ({ signal }) => fetchCertificates(params, signal),
    placeholderData: keepPreviousData,
  });
}
