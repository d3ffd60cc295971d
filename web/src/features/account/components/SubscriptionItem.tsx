// One line of the Active Subscriptions panel: the product, its status (spec section 4: green tick,
// yellow warning, red cross) and source, its plan, when it renews or ends, a past-due warning with
// the way to the billing portal, and the actions the server allows (`allowed_actions`) on the
// subscription behind it. The actions' dialogs belong to the panel, so they stay open while the
// line changes under them.
import { useId } from 'react';
import type { Subscription } from '../api/dashboard';
import { pastDueWarning, planLine, subscriptionDisplay, subscriptionEndText, underscoresAsSpaces, type SubscriptionEntry } from '../rules';
import { BillingPortalButton } from './BillingPortalButton';
import { SubscriptionStatusIcon } from './SubscriptionStatusIcon';

export type SubscriptionActionKind = 'cancel' | 'resume' | 'change_plan';

interface SubscriptionItemProps {
  entry: SubscriptionEntry;
  now: number;
  onAction: (kind: SubscriptionActionKind, subscription: Subscription) => void;
}

export function SubscriptionItem({ entry, now, onAction }: SubscriptionItemProps) {
  const { subscription, active } = entry;
  const nameId = useId();
  const warningId = useId();
  const display = subscriptionDisplay(subscription?.status ?? active?.status ?? '');
  const allowed = subscription?.allowed_actions ?? [];
  const endText = subscriptionEndText(entry, now);
  const actions: { kind: SubscriptionActionKind; label: string }[] = [];
  if (allowed.includes('resume')) actions.push({ kind: 'resume', label: 'Resume subscription' });
  if (allowed.includes('change_plan')) actions.push({ kind: 'change_plan', label: 'Change plan' });
  if (allowed.includes('cancel_at_period_end') || allowed.includes('cancel_now')) actions.push({ kind: 'cancel', label: 'Cancel subscription' });

  return (
    <li className="py-4">
      <div className="flex flex-wrap items-center gap-4">
        <SubscriptionStatusIcon tone={display.tone} />
        <div className="min-w-0 flex-1">
          <p id={nameId} className="font-semibold text-slate-900">
            {active?.product_name ?? subscription?.product.name}
          </p>
          <p className="text-sm text-slate-600">
            <span data-tone={display.tone}>{display.label}</span>
            {active?.subscription_source ? <> · {underscoresAsSpaces(active.subscription_source)}</> : null}
          </p>
          {subscription?.plan ? <p className="text-sm text-slate-600">{planLine(subscription.plan)}</p> : null}
        </div>
        {endText ? <p className="text-sm font-medium text-slate-700">{endText}</p> : null}
      </div>
      {subscription?.status === 'past_due' ? (
        <div className="mt-3 flex flex-wrap items-center justify-between gap-3 rounded-lg border border-amber-200 bg-amber-50 p-3 text-sm">
          <p id={warningId} role="alert" className="font-medium text-amber-900">
            {pastDueWarning(subscription.access_ends_at, now)}
          </p>
          <BillingPortalButton label="Update payment method" variant="primary" describedBy={warningId} />
        </div>
      ) : null}
      {subscription && actions.length > 0 ? (
        <div className="mt-3 flex flex-wrap gap-3">
          {actions.map((action) => (
            <button key={action.kind} type="button" className="btn-secondary" aria-describedby={nameId} onClick={() => onAction(action.kind, subscription)}>
              {action.label}
            </button>
          ))}
        </div>
      ) : null}
    </li>
  );
}
