// The catalogue's display rules (spec section 2 "Product detail page" and section 4
// "Availability"), as pure functions so every branch is tested.
import { isSoldOut, sortedPlans, trackedStock } from '@/lib/catalog';
import { billingFrequencyText, formatMoney } from '@/lib/format';
import type { PricingPlan, Product } from '@/lib/types';

// Availability is shared with checkout (lib/catalog); re-exported for this feature's components.
export { isSoldOut, trackedStock };

/** Stock below this is shown in yellow; 0 or less is out of stock (red). */
export const LOW_STOCK_THRESHOLD = 10;

type StockFields = Pick<Product, 'type' | 'track_inventory' | 'stock_quantity'>;


export type StockLevel = 'out' | 'low' | 'available';

export interface StockStatus {
  level: StockLevel;
  quantity: number;
}

/** The stock level; null when the product shows no stock (not physical, untracked or unknown). */
export function stockStatus(product: StockFields): StockStatus | null {
  const quantity = trackedStock(product);
  if (quantity === null) return null;
  if (quantity <= 0) return { level: 'out', quantity };
  if (quantity < LOW_STOCK_THRESHOLD) return { level: 'low', quantity };
  return { level: 'available', quantity };
}

/** The detail page's Stock Status text: 'Out of Stock', 'Only 4 left' or '42 Available'. */
export function stockStatusText(status: StockStatus): string {
  switch (status.level) {
    case 'out':
      return 'Out of Stock';
    case 'low':
      return `Only ${String(status.quantity)} left`;
    case 'available':
      return `${String(status.quantity)} Available`;
  }
}

/** The landing card's stock badge; null when there is none (untracked, or sold out: a banner then). */
export function cardStockBadge(product: StockFields): { level: 'low' | 'available'; text: string } | null {
  const status = stockStatus(product);
  if (!status || status.level === 'out') return null;
  return { level: status.level, text: `${String(status.quantity)} in stock` };
}

export type ProductAction =
  | { kind: 'coming-soon' }
  | { kind: 'out-of-stock' }
  | { kind: 'external'; url: string }
  | { kind: 'checkout'; to: string };

/** Only absolute http(s) links may become a buy button. */
export function safeExternalUrl(url: string | null | undefined): string | null {
  if (!url) return null;
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'https:' || parsed.protocol === 'http:' ? parsed.href : null;
  } catch {
    return null;
  }
}

/**
 * What the detail page's action area offers:
 * - action_type 'none': a Coming Soon block, no action;
 * - a physical tracked product with stock 0 or less: an OUT OF STOCK notice instead of the button;
 * - action_type set (not 'none') and an action_url: the button opens that URL in a new tab;
 * - otherwise ('checkout', null, an unrecognised value, or no usable URL): /checkout/{slug}.
 */
export function productAction(product: Pick<Product, 'slug' | 'action_type' | 'action_url'> & StockFields): ProductAction {
  if (product.action_type === 'none') return { kind: 'coming-soon' };
  if (isSoldOut(product)) return { kind: 'out-of-stock' };
  const url = safeExternalUrl(product.action_url);
  if (product.action_type && url) return { kind: 'external', url };
  return { kind: 'checkout', to: `/checkout/${encodeURIComponent(product.slug)}` };
}

/** The buy button's label. */
export function actionLabel(product: Pick<Product, 'type' | 'action_type'>): string {
  if (product.action_type === 'google_play') return 'Get it on Google Play';
  return product.type === 'subscription' ? 'Subscribe Now' : 'Buy Now';
}

/** A plan's price and frequency, e.g. '$15.00 per month' or 'A$40.00 every 3 months'. */
export function planPriceText(plan: Pick<PricingPlan, 'price_amount' | 'currency' | 'billing_frequency_value' | 'billing_frequency_unit'>): string {
  return `${formatMoney(plan.price_amount, plan.currency)} ${billingFrequencyText(plan.billing_frequency_value, plan.billing_frequency_unit)}`;
}

/** Plans to list, in sort order; empty when the product hides its pricing. */
export function visiblePlans(product: Pick<Product, 'show_pricing' | 'plans'>): PricingPlan[] {
  if (!product.show_pricing) return [];
  return sortedPlans(product);
}

export const WIREWRITE_SLUG = 'wirewrite';
export const WIREWRITE_APP_URL = 'https://app.wirewrite.co.nz';

/** The product's own price when it has no plans: '$89.00' or '$6.00 per month'; null when hidden or zero. */
export function basePriceText(product: Pick<Product, 'show_pricing' | 'price_nzd' | 'billing_interval'>): string | null {
  if (!product.show_pricing || product.price_nzd <= 0) return null;
  const price = formatMoney(product.price_nzd);
  return product.billing_interval ? `${price} ${billingFrequencyText(1, product.billing_interval)}` : price;
}
