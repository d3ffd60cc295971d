import { describe, expect, it } from 'vitest';
import { fixtureProduct } from '@/dev/fixtures';
import type { Product } from '@/lib/types';
import { billingFrequencyText } from '@/lib/format';
import {
  actionLabel,
  basePriceText,
  cardStockBadge,
  isSoldOut,
  planPriceText,
  productAction,
  safeExternalUrl,
  stockStatus,
  stockStatusText,
  visiblePlans,
} from './rules';

function physical(stock: number | null, track = true): Product {
  return { ...fixtureProduct('usb-rs232-cable'), stock_quantity: stock, track_inventory: track };
}

describe('stockStatus (Stock Status box)', () => {
  it('is out of stock at 0 or less', () => {
    expect(stockStatus(physical(0))).toEqual({ level: 'out', quantity: 0 });
    expect(stockStatus(physical(-2))).toEqual({ level: 'out', quantity: -2 });
    expect(stockStatusText({ level: 'out', quantity: 0 })).toBe('Out of Stock');
  });

  it('is low below 10', () => {
    expect(stockStatus(physical(1))).toEqual({ level: 'low', quantity: 1 });
    expect(stockStatus(physical(9))).toEqual({ level: 'low', quantity: 9 });
    expect(stockStatusText({ level: 'low', quantity: 4 })).toBe('Only 4 left');
  });

  it('is available from 10', () => {
    expect(stockStatus(physical(10))).toEqual({ level: 'available', quantity: 10 });
    expect(stockStatusText({ level: 'available', quantity: 42 })).toBe('42 Available');
  });

  it('is not shown for a null quantity, an untracked product or a subscription', () => {
    expect(stockStatus(physical(null))).toBeNull();
    expect(stockStatus(physical(3, false))).toBeNull();
    expect(stockStatus({ ...fixtureProduct('hhtraff'), stock_quantity: 3, track_inventory: true })).toBeNull();
  });
});

describe('cardStockBadge (landing cards)', () => {
  it('shows yellow below 10 and green otherwise', () => {
    expect(cardStockBadge(physical(4))).toEqual({ level: 'low', text: '4 in stock' });
    expect(cardStockBadge(physical(42))).toEqual({ level: 'available', text: '42 in stock' });
  });

  it('shows nothing when sold out (the banner says it) or when stock is not shown', () => {
    expect(cardStockBadge(physical(0))).toBeNull();
    expect(cardStockBadge(physical(null))).toBeNull();
    expect(cardStockBadge(physical(5, false))).toBeNull();
    expect(cardStockBadge(fixtureProduct('hhtraff'))).toBeNull();
  });
});

describe('isSoldOut', () => {
  it('is true only for a physical tracked product with stock 0 or less', () => {
    expect(isSoldOut(physical(0))).toBe(true);
    expect(isSoldOut(physical(-1))).toBe(true);
    expect(isSoldOut(physical(1))).toBe(false);
    expect(isSoldOut(physical(null))).toBe(false);
    expect(isSoldOut(physical(0, false))).toBe(false);
    expect(isSoldOut({ ...fixtureProduct('hhtraff'), stock_quantity: 0, track_inventory: true })).toBe(false);
  });
});

describe('productAction', () => {
  const base = fixtureProduct('hhtraff');

  it("shows Coming Soon for action_type 'none', even with a URL", () => {
    expect(productAction({ ...base, action_type: 'none', action_url: 'https://example.com' })).toEqual({ kind: 'coming-soon' });
  });

  it('opens the action URL when a type other than none is set and a URL exists', () => {
    expect(productAction({ ...base, action_type: 'google_play', action_url: 'https://play.google.com/store/apps/details?id=x' })).toEqual({
      kind: 'external',
      url: 'https://play.google.com/store/apps/details?id=x',
    });
    expect(productAction({ ...base, action_type: 'external_link', action_url: 'https://app.wirewrite.co.nz' })).toEqual({
      kind: 'external',
      url: 'https://app.wirewrite.co.nz/',
    });
    expect(productAction({ ...base, action_type: 'checkout', action_url: 'https://pay.example.com/x' })).toEqual({
      kind: 'external',
      url: 'https://pay.example.com/x',
    });
  });

  it('continues to /checkout/{slug} for checkout without a URL', () => {
    expect(productAction({ ...base, action_type: 'checkout', action_url: null })).toEqual({ kind: 'checkout', to: '/checkout/hhtraff' });
  });

  it('treats an unrecognised value like checkout', () => {
    expect(productAction({ ...base, action_type: 'subscribe_v2', action_url: null })).toEqual({ kind: 'checkout', to: '/checkout/hhtraff' });
  });

  it('goes to checkout when the URL is missing or not http(s), and when no type is set', () => {
    expect(productAction({ ...base, action_type: 'external_link', action_url: null })).toEqual({ kind: 'checkout', to: '/checkout/hhtraff' });
    expect(productAction({ ...base, action_type: 'external_link', action_url: '' })).toEqual({ kind: 'checkout', to: '/checkout/hhtraff' });
    expect(productAction({ ...base, action_type: 'external_link', action_url: 'javascript:alert(1)' })).toEqual({
      kind: 'checkout',
      to: '/checkout/hhtraff',
    });
    expect(productAction({ ...base, action_type: null, action_url: 'https://example.com' })).toEqual({ kind: 'checkout', to: '/checkout/hhtraff' });
  });

  it('replaces the button with OUT OF STOCK for a physical tracked product with stock 0 or less', () => {
    expect(productAction(physical(0))).toEqual({ kind: 'out-of-stock' });
    expect(productAction({ ...physical(-1), action_type: 'external_link', action_url: 'https://example.com' })).toEqual({ kind: 'out-of-stock' });
    expect(productAction(physical(1))).toEqual({ kind: 'checkout', to: '/checkout/usb-rs232-cable' });
    expect(productAction(physical(0, false))).toEqual({ kind: 'checkout', to: '/checkout/usb-rs232-cable' });
  });

  it('escapes the slug in the checkout path', () => {
    expect(productAction({ ...base, slug: 'a b', action_type: null, action_url: null })).toEqual({ kind: 'checkout', to: '/checkout/a%20b' });
  });
});

describe('safeExternalUrl', () => {
  it('accepts only absolute http(s) URLs', () => {
    expect(safeExternalUrl('https://example.com/x')).toBe('https://example.com/x');
    expect(safeExternalUrl('http://example.com')).toBe('http://example.com/');
    expect(safeExternalUrl('/relative')).toBeNull();
    expect(safeExternalUrl('data:text/html,hi')).toBeNull();
    expect(safeExternalUrl(undefined)).toBeNull();
  });
});

describe('labels and prices', () => {
  it('labels the buy button', () => {
    expect(actionLabel({ type: 'subscription', action_type: 'checkout' })).toBe('Subscribe Now');
    expect(actionLabel({ type: 'physical', action_type: null })).toBe('Buy Now');
    expect(actionLabel({ type: 'subscription', action_type: 'google_play' })).toBe('Get it on Google Play');
  });

  it('formats billing frequencies', () => {
    expect(billingFrequencyText(1, 'month')).toBe('per month');
    expect(billingFrequencyText(1, 'year')).toBe('per year');
    expect(billingFrequencyText(3, 'month')).toBe('every 3 months');
    expect(billingFrequencyText(12, 'month')).toBe('every 12 months');
  });

  it('formats plan prices from minor units in their currency', () => {
    const plan = { price_amount: 1500, currency: 'NZD', billing_frequency_value: 1, billing_frequency_unit: 'month' };
    expect(planPriceText(plan)).toBe('$15.00 per month');
    expect(planPriceText({ ...plan, price_amount: 4000, currency: 'AUD', billing_frequency_value: 3 })).toBe('A$40.00 every 3 months');
    expect(planPriceText({ ...plan, price_amount: 9900, currency: 'USD', billing_frequency_unit: 'year' })).toBe('US$99.00 per year');
  });

  it('lists plans in sort order, and none when pricing is hidden', () => {
    const product = fixtureProduct('hhtraff');
    product.plans = [...(product.plans ?? [])].reverse();
    expect(visiblePlans(product).map((p) => p.name)).toEqual(['Monthly', 'Quarterly', 'Annual']);
    expect(visiblePlans({ ...product, show_pricing: false })).toEqual([]);
    expect(visiblePlans({ show_pricing: true })).toEqual([]);
  });

  it("shows the product's own price when it has no plans", () => {
    expect(basePriceText({ show_pricing: true, price_nzd: 4900, billing_interval: null })).toBe('$49.00');
    expect(basePriceText({ show_pricing: true, price_nzd: 600, billing_interval: 'month' })).toBe('$6.00 per month');
    expect(basePriceText({ show_pricing: false, price_nzd: 4900, billing_interval: null })).toBeNull();
    expect(basePriceText({ show_pricing: true, price_nzd: 0, billing_interval: null })).toBeNull();
  });
});
