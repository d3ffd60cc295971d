// The checkout's choice: a subscription's pricing plan (radio buttons) or a physical product's
// quantity with its total (at most what is in stock; said so when the stock fell meanwhile).
import { useId } from 'react';
import type { sortedPlans } from '@/lib/catalog';
import { billingFrequencyText, formatMoney } from '@/lib/format';
import type { Product } from '@/lib/types';
import { quantityChoices } from '../rules';

type Plan = ReturnType<typeof sortedPlans>[number];

interface PlanChoiceProps {
  plans: Plan[];
  planId: string | null;
  disabled: boolean;
  onChoose: (id: string) => void;
}

export function PlanChoice({ plans, planId, disabled, onChoose }: PlanChoiceProps) {
  return (
    <fieldset>
      <legend className="text-sm font-semibold text-slate-900">Choose a pricing plan</legend>
      <div className="mt-3 space-y-2">
        {plans.map((plan) => (
          <label
            key={plan.id}
            className={`flex cursor-pointer items-center gap-3 rounded-xl border p-4 ${
              plan.id === planId ? 'border-brand-500 bg-brand-50' : 'border-slate-200 hover:bg-slate-50'
            }`}
          >
            <input
              type="radio"
              name="plan"
              value={plan.id}
              checked={plan.id === planId}
              onChange={() => onChoose(plan.id)}
              disabled={disabled}
              className="h-4 w-4 accent-brand-600"
            />
            <span className="flex flex-1 flex-wrap items-baseline justify-between gap-x-4">
              <span className="font-medium text-slate-900">{plan.name}</span>{' '}
              <span className="text-slate-700">
                <span className="font-semibold text-slate-900">{formatMoney(plan.price_amount, plan.currency)}</span>{' '}
                {billingFrequencyText(plan.billing_frequency_value, plan.billing_frequency_unit)}
              </span>
            </span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}

interface QuantityChoiceProps {
  product: Product;
  /** The quantity shown: the buyer's, lowered to the stock. */
  quantity: number;
  available: number;
  lowered: boolean;
  disabled: boolean;
  onChange: (quantity: number) => void;
}

export function QuantityChoice({ product, quantity, available, lowered, disabled, onChange }: QuantityChoiceProps) {
  const quantityId = useId();
  return (
    <dl className="space-y-4">
      <div className="flex items-baseline justify-between text-slate-700">
        <dt>Price</dt>
        <dd className="font-semibold text-slate-900">{formatMoney(product.price_nzd)}</dd>
      </div>
      <div className="flex items-center justify-between gap-4">
        <dt>
          <label htmlFor={quantityId} className="text-sm font-medium text-slate-700">
            Quantity
          </label>
        </dt>
        <dd>
          <select
            id={quantityId}
            value={quantity}
            onChange={(event) => onChange(Number(event.target.value))}
            disabled={disabled}
            aria-describedby={lowered ? `${quantityId}-lowered` : undefined}
            className="field-input w-24"
          >
            {quantityChoices(product).map((choice) => (
              <option key={choice} value={choice}>
                {choice}
              </option>
            ))}
          </select>
          {lowered ? (
            <p id={`${quantityId}-lowered`} className="mt-1 text-right text-sm text-yellow-800">
              Only {available} in stock: the quantity is now {available}.
            </p>
          ) : null}
        </dd>
      </div>
      <div className="flex items-baseline justify-between border-t border-slate-100 pt-4 text-lg">
        <dt className="font-medium text-slate-700">Total</dt>
        <dd className="font-bold text-slate-900">{formatMoney(product.price_nzd * quantity)}</dd>
      </div>
    </dl>
  );
}
