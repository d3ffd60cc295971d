// The back office's status words and their pills' tones (components/list/Badge). Orders:
// completed green, shipped blue, others grey (spec section 4).
import type { BadgeTone } from '@/components/list/Badge';

type Tone = BadgeTone;

/** 'paid_after_cancellation' → 'Paid after cancellation'. */
export function statusLabel(status: string): string {
  const words = status.replace(/_/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

export function orderTone(status: string): Tone {
  if (status === 'completed') return 'green';
  if (status === 'shipped') return 'blue';
  if (status === 'refunded') return 'yellow';
  return 'grey';
}

export function subscriptionTone(status: string): Tone {
  if (status === 'active') return 'green';
  if (status === 'trialing' || status === 'pending') return 'yellow';
  if (status === 'past_due') return 'amber';
  if (status === 'cancelled' || status === 'expired') return 'red';
  return 'grey';
}

/** The badge of an order a payment of another amount or currency arrived for: not marked paid, no invoice (docs/billing.md, "Amount mismatches"). */
export const AMOUNT_MISMATCH = 'Amount mismatch';
/** The badge of an order with a payment to return (paid twice: Mark as paid, then a card payment). */
export const PAID_TWICE = 'Paid twice';
