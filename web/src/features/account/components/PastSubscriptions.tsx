// "Past subscriptions": cancelled and expired ones, newest first, each with its plan and the date
// it ended when the server knows it. Nothing to do with them here: a new one starts at checkout.
import { formatDate } from '@/lib/format';
import type { Subscription } from '../api/dashboard';
import { planLine, subscriptionDisplay } from '../rules';

export function PastSubscriptions({ subscriptions }: { subscriptions: Subscription[] }) {
  if (subscriptions.length === 0) return null;
  return (
    <section aria-labelledby="past-subscriptions-heading" className="mt-8 rounded-2xl border border-slate-200 bg-white p-6 shadow-sm">
      <h2 id="past-subscriptions-heading" className="text-xl font-semibold text-slate-900">
        Past subscriptions
      </h2>
      <ul className="mt-4 divide-y divide-slate-100">
        {subscriptions.map((subscription) => (
          <li key={subscription.id} className="flex flex-wrap items-center justify-between gap-4 py-4">
            <div className="min-w-0">
              <p className="font-semibold text-slate-900">{subscription.product.name}</p>
              <p className="text-sm text-slate-600">
                {subscriptionDisplay(subscription.status).label}
                {subscription.plan ? <> · {planLine(subscription.plan)}</> : null}
              </p>
            </div>
            {subscription.ended_at ? <p className="text-sm font-medium text-slate-700">Ended {formatDate(subscription.ended_at)}</p> : null}
          </li>
        ))}
      </ul>
    </section>
  );
}
