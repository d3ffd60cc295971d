// The dashboard's display rules (spec section 4: "Subscription display", "Expiry text", "Order
// status badge") as pure functions, so every branch and boundary is tested.
import type { BadgeTone } from '@/components/list/Badge';
import { DISPLAY_TIME_ZONE, formatDate } from '@/lib/format';

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
  if (status === 'trial') return { tone: 'trial', label: 'Trial' };
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
