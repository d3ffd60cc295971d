// Cache keys of the back office. Every admin write invalidates what it changed (and, for the
// catalogue, the public product queries too, so the storefront shows the change at once).
export const adminKeys = {
  all: ['admin'] as const,
  stats: () => [...adminKeys.all, 'stats'] as const,
  products: () => [...adminKeys.all, 'products'] as const,
  productList: (params: ListParams) => [...adminKeys.products(), params] as const,
  images: () => [...adminKeys.all, 'images'] as const,
  subscriptions: (params: ListParams) => [...adminKeys.all, 'subscriptions', params] as const,
  orders: () => [...adminKeys.all, 'orders'] as const,
  orderList: (params: ListParams) => [...adminKeys.orders(), 'list', params] as const,
  order: (id: string) => [...adminKeys.orders(), 'one', id] as const,
  audit: (params: ListParams) => [...adminKeys.all, 'audit', params] as const,
};

/** A list's query string values (page and filters), as the server reads them. */
export type ListParams = Record<string, string | number | undefined>;
