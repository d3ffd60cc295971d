// GET /api/v1/account/orders?page=&page_size= (docs/billing.md): the caller's orders, newest first,
// a page at a time. The dashboard carries the newest ORDERS_PAGE_SIZE; the Order History asks for the
// pages after it when the customer wants older orders.
import { useInfiniteQuery } from '@tanstack/react-query';
import { pageSchema, type z } from '@/lib/schema';
import { apiFetch } from '@/lib/api';
import { orderSchema } from './dashboard';
import { accountKeys } from './keys';

/** The dashboard's order count, and the size of each further page. */
export const ORDERS_PAGE_SIZE = 20;

const ordersPageSchema = pageSchema(orderSchema);

export type OrdersPage = z.infer<typeof ordersPageSchema>;

export function fetchOrdersPage(page: number, signal?: AbortSignal): Promise<OrdersPage> {
  const path = `/api/v1/account/orders?page=${String(page)}&page_size=${String(ORDERS_PAGE_SIZE)}`;
  return apiFetch(path, signal ? { schema: ordersPageSchema, signal } : { schema: ordersPageSchema });
}

/** The pages after the dashboard's (page 2 on): the first once `enabled`, then one per fetchNextPage(). */
export function useOlderOrders(enabled: boolean) {
  return useInfiniteQuery({
    queryKey: accountKeys.orders(),
    queryFn: ({ pageParam, signal }) => fetchOrdersPage(pageParam, signal),
    initialPageParam: 2,
    getNextPageParam: (last) => (last.page * last.page_size < last.total ? last.page + 1 : undefined),
    enabled,
  });
}
