// The dashboard's Active Subscriptions panel (spec section 2 "Dashboard"): Refresh, then a line per
// product the person has access to or a subscription they still manage (rules.ts,
// subscriptionEntries). The actions' dialogs live here, not in the lines: a dialog stays mounted
// while its call runs even when the answer moves its line (a cancelled one goes to Past
// subscriptions), so its callbacks still run. What an action did is said under the heading.
import { useCallback, useState } from 'react';
import { Banner, type BannerMessage } from '@/components/Banner';
import type { Subscription } from '../api/dashboard';
import type { SubscriptionEntry } from '../rules';
import { RefreshIcon } from './AccountIcons';
import { CancelSubscriptionDialog } from './CancelSubscriptionDialog';
import { ChangePlanDialog } from './ChangePlanDialog';
import { ResumeSubscriptionDialog } from './ResumeSubscriptionDialog';
import { SubscriptionItem, type SubscriptionActionKind } from './SubscriptionItem';

interface SubscriptionsPanelProps {
  entries: SubscriptionEntry[];
  now: number;
  refreshing: boolean;
  onRefresh: () => void;
}

export function SubscriptionsPanel({ entries, now, refreshing, onRefresh }: SubscriptionsPanelProps) {
  const [open, setOpen] = useState<{ kind: SubscriptionActionKind; subscription: Subscription } | null>(null);
  const [message, setMessage] = useState<BannerMessage | null>(null);
  const dismiss = useCallback(() => setMessage(null), []);
  const close = () => setOpen(null);
  const done = (text: string) => {
    setOpen(null);
    setMessage({ tone: 'success', text });
  };
  const failed = (text: string) => {
    setOpen(null);
    setMessage({ tone: 'error', text });
  };

  return (
    <section aria-labelledby="active-subscriptions-heading" className="mt-8 rounded-2xl border border-slate-200 bg-white p-6 shadow-sm">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id="active-subscriptions-heading" className="text-xl font-semibold text-slate-900">
          Active Subscriptions
        </h2>
        <button type="button" className="btn-secondary" onClick={onRefresh} disabled={refreshing}>
          <RefreshIcon className={`h-4 w-4 ${refreshing ? 'animate-spin' : ''}`} />
          Refresh
        </button>
      </div>
      <div className={message ? 'mt-4' : undefined}>
        <Banner message={message} onDismiss={dismiss} sticky={message?.tone === 'error'} />
      </div>
      {entries.length === 0 ? (
        <p className="mt-4 text-slate-600">You have no active subscriptions.</p>
      ) : (
        <ul className="mt-4 divide-y divide-slate-100">
          {entries.map((entry, index) => (
            <SubscriptionItem
              key={entry.subscription?.id ?? `${entry.active?.product_slug ?? ''}-${String(index)}`}
              entry={entry}
              now={now}
              onAction={(kind, subscription) => {
                setMessage(null);
                setOpen({ kind, subscription });
              }}
            />
          ))}
        </ul>
      )}
      {open?.kind === 'cancel' ? <CancelSubscriptionDialog subscription={open.subscription} onClose={close} onDone={done} /> : null}
      {open?.kind === 'resume' ? <ResumeSubscriptionDialog subscription={open.subscription} onClose={close} onDone={done} onFailed={failed} /> : null}
      {open?.kind === 'change_plan' ? <ChangePlanDialog subscription={open.subscription} onClose={close} onDone={done} /> : null}
    </section>
  );
}
