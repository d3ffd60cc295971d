// GET /api/v1/admin/enquiries?handled=&q=&page=: Contact Sales enquiries, newest first, filtered
// (handled true/false), searched (name, email, company) and paged by the server.
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { apiFetch } from '@/lib/api';
import { PAGE_SIZE, queryString, type ListQuery } from '@/lib/list';
import { z } from '@/lib/schema';
import { adminKeys } from './keys';
import { pageSchema } from './schemas';

export const enquirySchema = z.object({
  id: z.string(),
  name: z.string(),
  email: z.string(),
  company: z.string().nullable(),
  phone: z.string().nullable(),
  message: z.string(),
  created_at: z.string(),
  handled: z.boolean(),
  handled_at: z.string().nullable(),
  handled_by: z.object({ id: z.string().nullable(), email: z.string().nullable() }).nullable(),
});
export type Enquiry = z.infer<typeof enquirySchema>;

const enquiryPageSchema = pageSchema(enquirySchema);

export function fetchEnquiries(params: ListQuery, signal?: AbortSignal) {
  const query = queryString({ ...params, page_size: PAGE_SIZE });
  return apiFetch(`/api/v1/admin/enquiries${query}`, { schema: enquiryPageSchema, signal });
}

export function useEnquiries(params: ListQuery) {
  return useQuery({
    queryKey: adminKeys.enquiryList(params),
    queryFn: ({ signal }) => fetchEnquiries(params, signal),
    placeholderData: keepPreviousData,
    staleTime: 0,
  });
}
