// "Change plan": the other plans of the subscription's product in the same currency (from the
// catalogue), and for the one chosen what the change costs before it is made (the server's
// preview: due now, the next renewal, credit). "Confirm plan change" makes it; the dialog stays
// open while it runs and shows the server's refusal (another currency, already on the plan,
// past due) in its own words.
import { useQuery } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { Dialog, DialogCloseButton } from '@/components/Dialog';
import { Loading } from '@/components/Spinner';
import { errorMessage } from '@/lib/api';
import { newIdempotencyKey } from '@/lib/idempotency';
import { productQuery, sortedPlans } from '@/lib/catalog';
import { billingFrequencyText, formatDate, formatMoney } from '@/lib/format';
import { useChangePlan } from '../api/changePlan';
import type { Subscription } from '../api/dashboard';
import { usePlanChangePreview, type PlanChangePreview } from '../api/planChangePreview';
import { FormAlert } from '@/components/detail/FormAlert';

const INLINE_LOADING = 'flex items-center py-2';

interface ChangePlanDialogProps {
  subscription: Subscription;
  onClose: () => void;
  onDone: (message: string) => void;
}

export function ChangePlanDialog({ subscription, onClose, onDone }: ChangePlanDialogProps) {
  const product = useQuery(productQuery(subscription.product.slug));
  const [planId, setPlanId] = useState<string | null>(null);
  const preview = usePlanChangePreview(subscription.id, planId);
  const change = useChangePlan();
  // One key per plan chosen in this opening: clicking Confirm twice changes the plan once.
  const keys = useRef(new Map<string, string>());
  const currentPlanId = subscription.pricing_plan_id ?? subscription.plan?.id ?? null;
  const currency = subscription.plan?.currency ?? 'NZD';
  const plans = product.data ? sortedPlans(product.data).filter((plan) => plan.id !== currentPlanId && plan.currency === currency) : [];
  const busy = change.isPending;

  const confirm = () => {
    if (!planId) return;
    let idempotencyKey = keys.current.get(planId);
    if (!idempotencyKey) {
      idempotencyKey = newIdempotencyKey();
      keys.current.set(planId, idempotencyKey);
    }
    change.mutate(
      { id: subscription.id, planId, idempotencyKey },
      { onSuccess: (answer) => onDone(answer.plan ? `You are now on the ${answer.plan.name} plan.` : 'Your plan has been changed.') },
    );
  };
  const close = () => {
    if (!busy) onClose();
  };

  return (
    <Dialog
      open
      onClose={close}
      title="Change plan"
      description={`${subscription.product.name}${subscription.plan ? `, now on the ${subscription.plan.name} plan` : ''}.`}
    >
      <DialogCloseButton onClick={close} />
      <div className="mt-4 space-y-4">
        {product.isPending ? (
          <Loading text="Loading plans..." className={INLINE_LOADING} />
        ) : product.error ? (
          <FormAlert tone="error">{errorMessage(product.error, 'The plans could not be loaded.')}</FormAlert>
        ) : plans.length === 0 ? (
          <p className="text-sm text-slate-600">There are no other plans to change to.</p>
        ) : (
          <fieldset className="space-y-2">
            <legend className="text-sm font-medium text-slate-700">
              Choose a new plan
            </legend>
            {plans.map((plan) => (
              <label key={plan.id} className="flex items-center gap-3 rounded-lg border border-slate-200 p-3 text-sm text-slate-800">
                <input type="radio" name="new-plan" value={plan.id} checked={planId === plan.id} disabled={busy} onChange={() => setPlanId(plan.id)} />
                <span>
                  {plan.name} · {formatMoney(plan.price_amount, plan.currency)} {billingFrequencyText(plan.billing_frequency_value, plan.billing_frequency_unit)}
                </span>
              </label>
            ))}
          </fieldset>
        )}
        {planId && preview.isPending ? <Loading text="Working out the price..." className={INLINE_LOADING} /> : null}
        {preview.error ? <FormAlert tone="error">{errorMessage(preview.error)}</FormAlert> : null}
        {preview.data ? <PreviewFigures preview={preview.data} /> : null}
        {change.error ? <FormAlert tone="error">{errorMessage(change.error, 'The plan could not be changed.')}</FormAlert> : null}
        <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
          <button type="button" className="btn-secondary" disabled={busy} onClick={close}>
            Keep current plan
          </button>
          <button type="button" className="btn-primary" disabled={busy || !preview.data} onClick={confirm}>
            {busy ? 'Changing plan...' : 'Confirm plan change'}
          </button>
        </div>
      </div>
    </Dialog>
  );
}

/** What the change costs: due now, then the next renewal, and any credit. */
function PreviewFigures({ preview }: { preview: PlanChangePreview }) {
  const money = (amount: number) => formatMoney(amount, preview.currency);
  return (
    <div aria-label="Plan change preview" role="group" className="space-y-1 rounded-lg bg-slate-50 p-4 text-sm text-slate-800">
      <p className="font-semibold">Due now: {money(preview.amount_due_now)}</p>
      <p>
        Then {money(preview.next_renewal_amount)} from {formatDate(preview.next_renewal_at)}
      </p>
      {preview.credit > 0 ? <p>Credit for unused time on your current plan: {money(preview.credit)}</p> : null}
      {preview.balance_after > 0 ? <p>Credit kept for your next renewal: {money(preview.balance_after)}</p> : null}
    </div>
  );
}
