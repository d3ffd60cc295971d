// Checkout display rules as pure functions (spec section 4 "Availability"; plan frequencies from
// section 9: 1, 3, 6 or 12 months or years). Price, currency and stock always come from the
// server's product; these only decide what to show and what to ask for.
import type { PricingPlan, Product } from '@/lib/types';

/** The server accepts a physical quantity of 1..99 (docs/billing.md). */
export const MAX_QUANTITY = 99;

/** 'per month', 'every 3 months', 'per year', 'every 2 years'. */
export function billingFrequencyLabel(value: number, unit: string): string {
  if (value === 1) return `per ${unit}`;
  return `every ${String(value)} ${unit}s`;
}

/** Plans in their sort order. */
export function sortedPlans(product: Pick<Product, 'plans'>): PricingPlan[] {
  return [...(product.plans ?? [])].sort((a, b) => a.sort_order - b.sort_order);
}

type StockFields = Pick<Product, 'type' | 'track_inventory' | 'stock_quantity'>;

/** The stock that limits the quantity: a tracked physical product's count, else null. */
function trackedStock(product: StockFields): number | null {
  if (product.type !== 'physical' || !product.track_inventory) return null;
  return product.stock_quantity ?? null;
}

/** A physical product that tracks inventory with stock 0 or less. */
export function isSoldOut(product: StockFields): boolean {
  const stock = trackedStock(product);
  return stock !== null && stock <= 0;
}

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
