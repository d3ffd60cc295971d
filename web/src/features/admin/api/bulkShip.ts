// POST /api/v1/admin/orders/bulk-ship {order_ids, carrier?}: "Mark as shipped" for the selected
// orders. Each order is its own transition on the server (history, audit, customer mail); the
// answer says which shipped and why the others did not. The order lists and statistics reload.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '@/lib/api';
import { z } from '@/lib/schema';
import { invalidateTodo } from './getTodo';
import { adminKeys } from './keys';

/** The server takes at most this many orders at a time. */
export const BULK_SHIP_MAX = 100;

const bulkShipAnswerSchema = z.object({
  shipped: z.number().int(),
  failed: z.number().int(),
  results: z.array(
    z.object({
      id: z.string(),
      order_number: z.string().nullable(),
      ok: z.boolean(),
      code: z.string().optional(),
      message: z.string().optional(),
    }),
  ),
});
export type BulkShipAnswer = z.infer<typeof bulkShipAnswerSchema>;

export function bulkShip({ orderIds, carrier }: { orderIds: string[]; carrier?: string }) {
  const body: { order_ids: string[]; carrier?: string } = { order_ids: orderIds };
  if (carrier?.trim()) body.carrier = carrier.trim();
  return apiFetch('/api/v1/admin/orders/bulk-ship', { method: 'POST', body, schema: bulkShipAnswerSchema });
}

export function useBulkShip() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: bulkShip,
    onSuccess: () => {
      invalidateTodo(queryClient);
      return Promise.all([
        queryClient.invalidateQueries({ queryKey: adminKeys.orders() }),
        queryClient.invalidateQueries({ queryKey: adminKeys.stats() }),
      ]);
    },
  });
}
