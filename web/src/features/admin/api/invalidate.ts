import type { QueryClient } from '@tanstack/react-query';
import { isApiError } from '@/lib/api';
import { productKeys } from '@/lib/catalog';
import { invalidateTodo } from './getTodo';
import { adminKeys } from './keys';
import type { OrderDetail } from './schemas';

/** After a catalogue write: the admin list, the statistics and the storefront's product queries. */
export function invalidateCatalogue(queryClient: QueryClient): Promise<void> {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: adminKeys.products() }),
    queryClient.invalidateQueries({ queryKey: adminKeys.stats() }),
    queryClient.invalidateQueries({ queryKey: productKeys.all }),
  ]).then(() => undefined);
}

/**
 * After an order write (status, cancel, refund): the answer is the order as it now is; the order
 * lists, the statistics and the books (a write may issue an invoice or a credit note) reload.
 */
export function invalidateAfterOrderWrite(queryClient: QueryClient, order: OrderDetail): Promise<void> {
  queryClient.setQueryData(adminKeys.order(order.id), order);
  invalidateTodo(queryClient);
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: adminKeys.orders() }),
    queryClient.invalidateQueries({ queryKey: adminKeys.stats() }),
    queryClient.invalidateQueries({ queryKey: adminKeys.books() }),
  ]).then(() => undefined);
}

export const INVALID_TRANSITION = 'invalid_transition';

/** 409 invalid_transition: the order is no longer where the page thought (someone else moved it). */
export function isRefusedMove(error: unknown): boolean {
  return isApiError(error) && error.status === 409 && error.code === INVALID_TRANSITION;
}

/** After a refused move: the orders reload, so the page offers what the order allows now. */
export function reloadOrdersAfterRefusal(queryClient: QueryClient, error: unknown): void {
  if (isRefusedMove(error)) void queryClient.invalidateQueries({ queryKey: adminKeys.orders() });
}
