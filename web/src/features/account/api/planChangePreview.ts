// GET /api/v1/account/subscriptions/{id}/change-preview?priceId={planId}: what a plan change would
// cost before it is made: due now, the next renewal (when and how much), the unused time credited
// and the credit kept for the next renewal. All amounts in minor units of `currency`. Errors as
// change-plan's (changePlan.ts).
import { useQuery } from '@tanstack/react-query';
import { apiFetch } from '@/lib/api';
import { z } from '@/lib/schema';
import { accountKeys } from './keys';
import { subscriptionPath } from './subscriptionWrites';

export const planChangePreviewSchema = z.object({
  amount_due_now: z.number().int(),
  currency: z.string(),
  /** ISO-8601 UTC. */
  next_renewal_at: z.string(),
  next_renewal_amount: z.number().int(),
  /** Unused time on the current plan, credited. */
  credit: z.number().int(),
  /** Credit left over, kept for the next renewal. */
  balance_after: z.number().int(),
});

export type PlanChangePreview = z.infer<typeof planChangePreviewSchema>;

export function fetchPlanChangePreview(id: string, planId: string, signal?: AbortSignal) {
  const path = `${subscriptionPath(id, 'change-preview')}?priceId=${encodeURIComponent(planId)}`;
  return apiFetch(path, signal ? { schema: planChangePreviewSchema, signal } : { schema: planChangePreviewSchema });
}

/** The preview for `planId` (none until a plan is chosen); asked afresh each time, never cached. */
export function usePlanChangePreview(id: string, planId: string | null) {
  return useQuery({
    queryKey: accountKeys.planChangePreview(id, planId ?? ''),
    queryFn: ({ signal }) => fetchPlanChangePreview(id, planId ?? '', signal),
    enabled: planId !== null,
    staleTime: 0,
    gcTime: 0,
    retry: false,
  });
}
