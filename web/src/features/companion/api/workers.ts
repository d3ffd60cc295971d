// GET /api/v1/admin/wirewrite/workers?q=&tier=&sort=&dir=&page= (searched, filtered, sorted and
// paged by the server; counts for the heading).
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { pageSchema, z } from '@/lib/schema';
import { apiFetch } from '@/lib/api';
import { PAGE_SIZE, queryString, type ListQuery } from '@/lib/list';
import { companionKeys } from './keys';

export const workerSchema = z.object({
  id: z.string(),
  full_name: z.string().nullable(),
  email: z.string().nullable(),
  ewrb_licence_number: z.string().nullable(),
  entitlement: z.string(),
  pro_expires_at: z.string().nullable(),
  created_at: z.string(),
  certificates_count: z.number().int(),
});

export type Worker = z.infer<typeof workerSchema>;

export const workerPageSchema = pageSchema(workerSchema).extend({
  counts: z.object({ all: z.number().int(), free: z.number().int(), pro: z.number().int() }),
});

export type WorkerPage = z.infer<typeof workerPageSchema>;

export function fetchWorkers(params: ListQuery, signal?: AbortSignal): Promise<WorkerPage> {
  const path = `/api/v1/admin/wirewrite/workers${queryString({ ...params, page_size: PAGE_SIZE })}`;
  return apiFetch(path, signal ? { schema: workerPageSchema, signal } : { schema: workerPageSchema });
}

export function useWorkers(params: ListQuery) {
  return useQuery({
    queryKey: companionKeys.workers(params),
    queryFn: ({ signal }) => fetchWorkers(params, signal),
    placeholderData: keepPreviousData,
  });
}
