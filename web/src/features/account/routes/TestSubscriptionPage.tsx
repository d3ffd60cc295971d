// /test-subscription (spec section 2 "Subscription test page"): a signed-in person tries checkout
// and billing management for WireWrite Pro through the subscription-check SDK
// (@/lib/subscriptionCheck), the same module the company's apps use. The status is checked on
// load; every failure shows as 'Error: ...'. The plan id comes from the catalogue, never the code.
import { useQuery } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { errorMessage } from '@/lib/api';
import { productQuery } from '@/lib/catalog';
import { formatDate } from '@/lib/format';
import { SITE_NAME, useDocumentHead } from '@/lib/head';
import type { SubscriptionValidation } from '@/lib/subscriptionCheck';
import { accountKeys } from '../api/keys';
import { subscriptionClient } from '../subscriptionClient';
import { findTestPlan, TEST_PRODUCT_SLUG } from '../testSubscription';

const HEAD = { title: `Subscription Test | ${SITE_NAME}`, robots: 'noindex' };

const PLAN_MISSING_TEXT = 'The WireWrite Pro Monthly plan ($6/month) is not available.';

type Action = 'checkout' | 'portal' | 'leaving';

function useValidation() {
  return useQuery({
    queryKey: accountKeys.subscriptionValidation(TEST_PRODUCT_SLUG),
    // Never throws: failures come back as a result with `error` (see the SDK).
    queryFn: () => subscriptionClient.validateSubscription(TEST_PRODUCT_SLUG),
    staleTime: 0,
    retry: false,
  });
}

function statusLine(action: Action | null, checking: boolean, result: SubscriptionValidation | undefined): string {
  if (action === 'checkout') return 'Creating checkout session...';
  if (action === 'portal') return 'Opening billing portal...';
  if (action === 'leaving') return 'Redirecting...';
  if (checking) return 'Checking subscription status...';
  if (!result) return '';
  if (!result.lastCheckAt) return 'Status not confirmed online.';
  const when = formatDate(result.lastCheckAt, { withTime: true });
  return result.fromCache ? `Showing the saved result from ${when} (the server could not be reached).` : `Status checked ${when}.`;
}

export function TestSubscriptionPage() {
  useDocumentHead(HEAD);
  const product = useQuery(productQuery(TEST_PRODUCT_SLUG));
  const plan = findTestPlan(product.data);
  const validation = useValidation();
  const [action, setAction] = useState<Action | null>(null);
  const [actionError, setActionError] = useState<string | null>(null);
  const result = validation.data;
  const busy = action !== null;

  const subscribe = async () => {
    if (!plan || busy) return;
    setActionError(null);
    setAction('checkout');
    try {
      await subscriptionClient.createCheckoutSession(plan.id, TEST_PRODUCT_SLUG);
      setAction('leaving');
    } catch (error) {
      setAction(null);
      setActionError(errorMessage(error));
    }
  };

  const manageBilling = async () => {
    if (busy) return;
    setActionError(null);
    setAction('portal');
    try {
      await subscriptionClient.createPortalSession({ returnPath: '/test-subscription' });
      setAction('leaving');
    } catch (error) {
      setAction(null);
      setActionError(errorMessage(error));
    }
  };

  const checkStatus = () => {
    setActionError(null);
    void validation.refetch();
  };

  const planMissing = !product.isPending && !plan;
  const errorText = actionError ?? (validation.isFetching ? null : (result?.error ?? null)) ?? (planMissing ? PLAN_MISSING_TEXT : null);

  return (
    <div className="mx-auto max-w-5xl px-4 py-8 sm:px-6 lg:py-12">
      <h1 className="text-3xl font-bold tracking-tight text-slate-900">Subscription Test</h1>
      <p className="mt-3 text-slate-600">
        Try checkout and billing management for WireWrite Pro with your own account. Nothing here is special: it uses the same
        checks as the apps.
      </p>

      <div className="mt-8 grid gap-6 lg:grid-cols-2">
        <section aria-labelledby="subscription-status-heading" className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm">
          <h2 id="subscription-status-heading" className="text-xl font-semibold text-slate-900">
            Subscription Status
          </h2>
          {result ? (
            <dl className="mt-4 divide-y divide-slate-100">
              <Row term="Valid">
                <span className={result.valid ? 'font-semibold text-green-700' : 'font-semibold text-red-700'}>{result.valid ? 'Yes' : 'No'}</span>
              </Row>
              <Row term="Status">{result.status}</Row>
              <Row term="Days Remaining">{String(result.daysRemaining)}</Row>
              <Row term="Expiry Date">{result.expiresAt ? formatDate(result.expiresAt) : 'None'}</Row>
              <Row term="Message">{result.message || 'None'}</Row>
            </dl>
          ) : null}

          <div className="mt-6 flex flex-wrap gap-3">
            <button type="button" className="btn-primary" onClick={() => void subscribe()} disabled={busy || !plan}>
              Subscribe ($6/month)
            </button>
            <button type="button" className="btn-secondary" onClick={() => void manageBilling()} disabled={busy}>
              Manage Billing
            </button>
            <button type="button" className="btn-secondary" onClick={checkStatus} disabled={busy || validation.isFetching}>
              Check Status
            </button>
          </div>

          <p role="status" className="mt-4 min-h-5 text-sm text-slate-600">
            {statusLine(action, validation.isFetching, result)}
          </p>
          {errorText ? (
            <p role="alert" className="mt-2 rounded-lg border border-red-300 bg-red-50 p-3 text-sm text-red-800">
              Error: {errorText}
            </p>
          ) : null}
        </section>

        <section aria-labelledby="test-instructions-heading" className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm">
          <h2 id="test-instructions-heading" className="text-xl font-semibold text-slate-900">
            Test Instructions
          </h2>
          <ol className="mt-4 list-decimal space-y-2 pl-5 text-slate-700">
            <li>Press Subscribe ($6/month) to start a checkout for the WireWrite Pro Monthly plan.</li>
            <li>
              With the local test provider, the payment page is marked TEST MODE: press Pay to complete the payment, or Decline to
              see a declined card. Cancel brings you back without a charge.
            </li>
            <li>
              When Stripe is configured, Stripe&apos;s test cards apply: 4242 4242 4242 4242 pays, 4000 0000 0000 0002 is declined;
              use any future expiry date and any CVC.
            </li>
            <li>After paying you return to your Dashboard, which confirms the order. Come back here and press Check Status: the status should be active.</li>
            <li>Manage Billing opens the billing portal, where the subscription can be cancelled. Check Status then shows the change.</li>
          </ol>
          <dl className="mt-6 rounded-xl bg-slate-50 p-4 text-sm text-slate-700">
            <dt className="font-medium text-slate-900">Price ID</dt>
            <dd className="mt-1 break-all font-mono">{plan ? plan.id : product.isPending ? 'Loading...' : 'Not available'}</dd>
          </dl>
        </section>
      </div>
    </div>
  );
}

function Row({ term, children }: { term: string; children: ReactNode }) {
  return (
    <div className="flex justify-between gap-4 py-2">
      <dt className="text-slate-500">{term}</dt>
      <dd className="text-right font-medium text-slate-900">{children}</dd>
    </div>
  );
}
