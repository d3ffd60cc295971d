// What every subscription action shares (cancel, resume, change plan: docs/billing.md,
// "Subscription lifecycle"): its path, and the reload after it. The answer is the subscription as
// it now is; the dashboard and every cached validate-subscription answer reload, since access may
// have changed.
import type { QueryClient } from '@tanstack/react-query';
import { accountKeys } from './keys';

export function subscriptionPath(id: string, action: string): string {
  return `/api/v1/account/subscriptions/${encodeURIComponent(id)}/${action}`;
}

export function invalidateAfterSubscriptionWrite(queryClient: QueryClient): Promise<void> {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: accountKeys.dashboard() }),
    queryClient.invalidateQueries({ queryKey: accountKeys.subscriptionValidations() }),
  ]).then(() => undefined);
}
