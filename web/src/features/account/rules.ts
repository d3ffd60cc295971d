// The dashboard's display rules (spec section 4: "Subscription display", "Expiry text", "Order
// status badge"; docs/billing.md "Subscription lifecycle" for past due, cancelling and ended
// subscriptions) as pure functions, so every branch and boundary is tested.
import type { BadgeTone } from '@/components/list/Badge';
import { billingFrequencyText, DISPLAY_TIME_ZONE, formatDate, formatMoney } from '@/lib/format';
import type { ActiveSubscription, Subscription } from './api/dashboard';

const DAY_MS = 24 * 60 * 60 * 1000;

/** 'Expires in N days' is used up to this many days; later ones show the date. */
export const EXPIRY_SOON_DAYS = 7;

const calendarDate = new Intl.DateTimeFormat('en-CA', {
  timeZone: DISPLAY_TIME_ZONE,
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
});

/** The Pacific/Auckland calendar day of an instant, as a day number (days since 1970-01-01). */
function calendarDayNumber(instant: number): number {
  const parts = calendarDate.formatToParts(instant);
  const part = (type: Intl.DateTimeFormatPartTypes) => Number(parts.find((p) => p.type === type)?.value);
  return Date.UTC(part('year'), part('month') - 1, part('day')) / DAY_MS;
}

/**
 * Calendar days from `now` to `end` in New Zealand (Pacific/Auckland), the zone every date on the
 * site is shown in: 0 when both fall on the same NZ date, 1 when `end` is on the next NZ date
 * (even if only minutes away), and so on. Chosen over whole 24-hour periods so that 'today' and
 * 'tomorrow' mean what they say next to the NZ date shown by formatDate, across DST changes too.
 */
export function calendarDaysBetween(now: number, end: number): number {
  return calendarDayNumber(end) - calendarDayNumber(now);
}

/**
 * The expiry text of an active subscription (spec section 4): null 'Never expires'; at or before
 * now 'Expired'; later the same NZ day 'Expires today'; the next NZ day 'Expires tomorrow';
 * 2..7 NZ days away 'Expires in N days'; beyond that 'Expires {date}' (formatDate). An
 * unreadable date gives ''.
 */
export function expiryText(expiresAt: string | null, now: number): string {
  if (expiresAt === null) return 'Never expires';
  const end = Date.parse(expiresAt);
  if (Number.isNaN(end)) return '';
  if (end <= now) return 'Expired';
  const days = calendarDaysBetween(now, end);
  if (days <= 0) return 'Expires today';
  if (days === 1) return 'Expires tomorrow';
  if (days <= EXPIRY_SOON_DAYS) return `Expires in ${String(days)} days`;
  return `Expires ${formatDate(new Date(end))}`;
}

export type SubscriptionTone = 'active' | 'trial' | 'inactive';

function capitalise(text: string): string {
  return text ? `${text.charAt(0).toUpperCase()}${text.slice(1)}` : text;
}

/** Words joined by '_' as words: 'stripe_subscription' is 'stripe subscription'. */
export function underscoresAsSpaces(text: string): string {
  return text.replace(/_+/g, ' ').trim();
}

/** Active: green tick; trial: yellow warning; anything else: red cross (spec section 4). */
export function subscriptionDisplay(status: string): { tone: SubscriptionTone; label: string } {
  if (status === 'active') return { tone: 'active', label: 'Active' };
  // 'trialing' is a subscription row's word for the same state.
  if (status === 'trial' || status === 'trialing') return { tone: 'trial', label: 'Trial' };
  return { tone: 'inactive', label: capitalise(underscoresAsSpaces(status)) || 'Inactive' };
}

/** Completed green, shipped blue, others grey (spec section 4). */
export function orderBadge(status: string): { tone: BadgeTone; label: string } {
  const label = capitalise(underscoresAsSpaces(status));
  if (status === 'completed') return { tone: 'green', label };
  if (status === 'shipped') return { tone: 'blue', label };
  return { tone: 'grey', label };
}

/** The Active Subscriptions card: subscriptions whose status is active. */
export function countActive(subscriptions: readonly { status: string }[]): number {
  return subscriptions.filter((subscription) => subscription.status === 'active').length;
}

/** Ended subscriptions: listed under Past subscriptions, with no actions. */
export function isEnded(status: string): boolean {
  return status === 'cancelled' || status === 'expired';
}

/** Subscriptions that give (or, past due, are about to lose) access: shown with their actions. */
function isCurrent(status: string): boolean {
  return status === 'active' || status === 'trialing' || status === 'past_due';
}

/**
 * One line of the Active Subscriptions panel: a product the person has access to (`active`, the
 * spec's active-subscription result) and the subscription behind it that they manage, when there
 * is one (an enterprise seat has none; a past-due subscription may have no access result).
 */
export interface SubscriptionEntry {
  subscription: Subscription | null;
  active: ActiveSubscription | null;
}

/**
 * The panel's lines: each access result, paired with the first current subscription to the same
 * product (rows come newest first), then each current subscription left unpaired.
 */
export function subscriptionEntries(subscriptions: readonly Subscription[], active: readonly ActiveSubscription[]): SubscriptionEntry[] {
  const unpaired = subscriptions.filter((subscription) => isCurrent(subscription.status));
  const entries: SubscriptionEntry[] = active.map((result) => {
    const index = unpaired.findIndex((subscription) => subscription.product.slug === result.product_slug);
    const [subscription] = index >= 0 ? unpaired.splice(index, 1) : [null];
    return { subscription: subscription ?? null, active: result };
  });
  return [...entries, ...unpaired.map((subscription) => ({ subscription, active: null }))];
}

/** Until when a subscription gives access if it is cancelled at the end of its period. */
export function accessUntil(subscription: Pick<Subscription, 'access_ends_at' | 'current_period_end'>): string | null {
  return subscription.access_ends_at ?? subscription.current_period_end;
}

/** "2 Oct 2025", or "the end of the period" when the server gave no date. */
function dateOrPeriodEnd(value: string | null | undefined): string {
  const date = value ? formatDate(value) : '';
  return date === '' ? 'the end of the period' : date;
}

/**
 * The line's end text: a cancelling subscription 'Ends on {date}'; a trial 'Trial ends on {date}';
 * past due nothing (its warning says it); otherwise the spec's expiry text.
 */
export function subscriptionEndText({ subscription, active }: SubscriptionEntry, now: number): string {
  if (subscription?.status === 'past_due') return '';
  if (subscription?.cancel_at_period_end) return `Ends on ${dateOrPeriodEnd(accessUntil(subscription))}`;
  if (subscription?.status === 'trialing' && subscription.trial_end) return `Trial ends on ${formatDate(subscription.trial_end)}`;
  return expiryText(active ? active.expires_at : (subscription?.current_period_end ?? null), now);
}

/**
 * A past-due subscription's warning: within the grace period, the date to pay by; once it has
 * passed, that access is gone until payment. Without a date, the warning without one.
 */
export function pastDueWarning(accessEndsAt: string | null | undefined, now: number): string {
  const end = accessEndsAt ? Date.parse(accessEndsAt) : Number.NaN;
  if (Number.isNaN(end)) return 'Payment failed: update your payment method to keep access.';
  if (end <= now) return 'Payment overdue: update your payment method to restore access.';
  return `Payment failed: update your payment method by ${formatDate(new Date(end))} to keep access.`;
}

/** What the cancel choices and the resume confirmation say (the dates in them). */
export const cancelTexts = {
  atPeriodEnd: (subscription: Pick<Subscription, 'access_ends_at' | 'current_period_end'>) =>
    `You keep access until ${dateOrPeriodEnd(accessUntil(subscription))}.`,
  now: 'Access ends immediately. No refund is made.',
  resume: (subscription: Pick<Subscription, 'current_period_end'>) => `Your subscription will renew on ${dateOrPeriodEnd(subscription.current_period_end)}.`,
};

/** "Monthly · $15.00 per month" for a subscription's plan. */
export function planLine(plan: Pick<NonNullable<Subscription['plan']>, 'name' | 'price_amount' | 'currency' | 'billing_frequency_value' | 'billing_frequency_unit'>): string {
  return `${plan.name} · ${formatMoney(plan.price_amount, plan.currency)} ${billingFrequencyText(plan.billing_frequency_value, plan.billing_frequency_unit)}`;
}
