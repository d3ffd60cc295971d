// GET /api/v1/admin/orders/{id}: one order with its items, status history and late payments.
import { useQuery } from '@tanstack/react-query';
import { apiFetch } from '@/lib/api';
import { z } from '@/lib/schema';
import { adminKeys } from './keys';
import { orderDetailSchema } from './schemas';

export const orderAnswerSchema = z.object({ order: orderDetailSchema });

export async function fetchOrder(id: string, signal?: AbortSignal) {
  const answer = await apiFetch(`/api/v1/admin/orders/${encodeURIComponent(id)}`, { schema: orderAnswerSchema, signal });
  return answer.order;
}

export function useOrder(id: string) {
  return useQuery({ queryKey: adminKeys.order(id), queryFn: ({ signal }) => fetchOrder(id, signal), staleTime: 0 });
}
