import type { Product } from '@/lib/types';
import { basePriceText, planPriceText, visiblePlans } from '../rules';

/** The plans (or the product's own price) when the product shows its pricing. */
export function Pricing({ product }: { product: Product }) {
  const plans = visiblePlans(product);
  const basePrice = plans.length === 0 ? basePriceText(product) : null;
  if (plans.length === 0 && !basePrice) return null;
  return (
    <section aria-labelledby="pricing-heading" className="rounded-xl border border-slate-200 bg-white p-4">
      <h2 id="pricing-heading" className="text-sm font-semibold uppercase tracking-wide text-slate-500">
        Pricing
      </h2>
      {plans.length > 0 ? (
        <ul className="mt-3 divide-y divide-slate-100">
          {plans.map((plan) => (
            <li key={plan.id} className="flex items-baseline justify-between gap-4 py-2">
              <span className="font-medium text-slate-800">{plan.name}</span>
              <span className="text-right font-semibold text-slate-900">{planPriceText(plan)}</span>
            </li>
          ))}
        </ul>
      ) : (
        <p className="mt-2 text-2xl font-bold text-slate-900">{basePrice}</p>
      )}
      <p className="mt-2 text-xs text-slate-500">All prices include GST.</p>
    </section>
  );
}
