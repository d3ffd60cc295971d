import { describe, expect, it } from 'vitest';
import { fixtureProduct } from '@/dev/fixtures';
import { isSoldOut, sortedPlans } from '@/lib/catalog';
import { billingFrequencyText } from '@/lib/format';
import { maxQuantity, quantityChoices } from './rules';

describe('billingFrequencyText', () => {
  it.each([
    [1, 'month', 'per month'],
    [3, 'month', 'every 3 months'],
    [6, 'month', 'every 6 months'],
    [12, 'month', 'every 12 months'],
    [1, 'year', 'per year'],
    [2, 'year', 'every 2 years'],
  ])('%i %s is "%s"', (value, unit, text) => {
    expect(billingFrequencyText(value, unit)).toBe(text);
  });
});

describe('quantities and availability', () => {
  const physical = { type: 'physical' as const, track_inventory: true };

  it('limits the quantity to the stock', () => {
    expect(maxQuantity({ ...physical, stock_quantity: 3 })).toBe(3);
    expect(quantityChoices({ ...physical, stock_quantity: 3 })).toEqual([1, 2, 3]);
  });

  it('never offers more than 99', () => {
    expect(maxQuantity({ ...physical, stock_quantity: 500 })).toBe(99);
  });

  it('offers 1..99 when the stock is not tracked or unknown', () => {
    expect(maxQuantity({ ...physical, track_inventory: false, stock_quantity: 2 })).toBe(99);
    expect(maxQuantity({ ...physical, stock_quantity: null })).toBe(99);
    expect(quantityChoices({ ...physical, stock_quantity: null })).toHaveLength(99);
  });

  it('is sold out at 0 or less stock, only when tracked', () => {
    expect(isSoldOut({ ...physical, stock_quantity: 0 })).toBe(true);
    expect(isSoldOut({ ...physical, stock_quantity: -2 })).toBe(true);
    expect(maxQuantity({ ...physical, stock_quantity: -2 })).toBe(0);
    expect(isSoldOut({ ...physical, stock_quantity: 1 })).toBe(false);
    expect(isSoldOut({ ...physical, track_inventory: false, stock_quantity: 0 })).toBe(false);
    expect(isSoldOut({ type: 'subscription', track_inventory: true, stock_quantity: 0 })).toBe(false);
  });
});

describe('sortedPlans', () => {
  it('orders by sort_order without changing the product', () => {
    const product = fixtureProduct('hhtraff');
    product.plans = [...(product.plans ?? [])].reverse();
    expect(sortedPlans(product).map((plan) => plan.name)).toEqual(['Monthly', 'Quarterly', 'Annual']);
    expect(product.plans[0]?.name).toBe('Annual');
  });

  it('copes with a product without plans', () => {
    expect(sortedPlans({})).toEqual([]);
  });
});
