// GET /api/v1/admin/customers/{id}: one customer with their orders, subscriptions, invoices,
// enterprise accounts, WireWrite profile, two-factor factors and recent sign-in events.
import { useQuery } from '@tanstack/react-query';
import { apiFetch } from '@/lib/api';
import { customerDetailSchema } from './customerSchemas';
import { adminKeys } from './keys';

export function fetchCustomer(id: string, signal?: AbortSignal) {
  return apiFetch(`/api/v1/admin/customers/${encodeURIComponent(id)}`, { schema: customerDetailSchema, signal });
}

export function useCustomer(id: string) {
  return useQuery({ queryKey: adminKeys.customer(id), queryFn: ({ signal }) => fetchCustomer(id, signal), staleTime: 0 });
}
