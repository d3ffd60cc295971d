// Checkout display rules as pure functions (plan frequencies from section 9: 1, 3, 6 or 12 months
// or years; availability and plan order are the shared catalogue rules of @/lib/catalog). Price,
// currency and stock always come from the server's product; these only decide what to show and
// what to ask for.
import { trackedStock } from '@/lib/catalog';
import type { Product } from '@/lib/types';

/** The server accepts a physical quantity of 1..99 (docs/billing.md). */
export const MAX_QUANTITY = 99;

type StockFields = Pick<Product, 'type' | 'track_inventory' | 'stock_quantity'>;

/** The largest quantity that may be asked for: the stock (at most 99), or 99 when not tracked. */
export function maxQuantity(product: StockFields): number {
  const stock = trackedStock(product);
  if (stock === null) return MAX_QUANTITY;
  return Math.max(0, Math.min(stock, MAX_QUANTITY));
}

/** The 1..max choices of the quantity control. */
export function quantityChoices(product: StockFields): number[] {
  return Array.from({ length: maxQuantity(product) }, (_, index) => index + 1);
}
