// The subscription test page's product and plan (spec section 2 "Subscription test page",
// section 9 "Test Pro plan price: $6 per month"). The plan id is read from the catalogue.
import type { PricingPlan, Product } from '@/lib/types';

export const TEST_PRODUCT_SLUG = 'wirewrite';
export const TEST_PLAN_NAME = 'Pro Monthly';
/** The plan the Subscribe ($6/month) button buys: 600 NZD cents every 1 month. */
export const TEST_PLAN_PRICE = { amount: 600, currency: 'NZD', value: 1, unit: 'month' } as const;

function isSixDollarsMonthly(plan: PricingPlan): boolean {
  return (
    plan.price_amount === TEST_PLAN_PRICE.amount &&
    plan.currency.toUpperCase() === TEST_PLAN_PRICE.currency &&
    plan.billing_frequency_value === TEST_PLAN_PRICE.value &&
    plan.billing_frequency_unit === TEST_PLAN_PRICE.unit
  );
}

/**
 * The product's plan priced $6 NZD per month (the button says so), preferring the one named
 * 'Pro Monthly' when there are several; null when there is none.
 */
export function findTestPlan(product: Pick<Product, 'plans'> | null | undefined): PricingPlan | null {
  const plans = (product?.plans ?? []).filter(isSixDollarsMonthly);
  return plans.find((plan) => plan.name === TEST_PLAN_NAME) ?? plans[0] ?? null;
}
