// What staff may do with an order, read from the server's answer (never decided here): its
// lifecycle moves (`allowed_statuses`), whether "Cancel order" may refund and cancel a paid order
// (`cancellable`), and what is left to refund (`refundable_amount`). The sentences the
// confirmations say are built here too, so every dialog says what will happen the same way.
import { formatMoney } from '@/lib/format';
import type { OrderDetail, OrderRow } from './api/schemas';

export interface OrderActionSet {
  /** pending → paid: money received outside the payment provider (a bank transfer). */
  markPaid: boolean;
  ship: boolean;
  complete: boolean;
  /** cancelled (paid after cancellation) → paid. */
  reinstate: boolean;
  /** pending → cancelled: the stock back, the checkout closed. */
  cancelUnpaid: boolean;
  /** POST /cancel: the rest refunded, then cancelled. */
  cancelPaid: boolean;
  refund: boolean;
}

type ActionFacts = Pick<OrderRow, 'status' | 'allowed_statuses' | 'cancellable'> & { refundable_amount?: number };

export function orderActions(order: ActionFacts): OrderActionSet {
  const allowed = new Set(order.allowed_statuses);
  return {
    markPaid: order.status === 'pending' && allowed.has('paid'),
    ship: allowed.has('shipped'),
    complete: allowed.has('completed'),
    reinstate: order.status === 'cancelled' && allowed.has('paid'),
    cancelUnpaid: order.status === 'pending' && allowed.has('cancelled'),
    cancelPaid: order.cancellable,
    refund: (order.refundable_amount ?? 0) > 0,
  };
}

/** The units of the order not yet returned to stock (what "Cancel order" returns when asked). */
export function unitsNotRestocked(items: OrderDetail['items']): number {
  return items.reduce((sum, item) => sum + Math.max(0, item.quantity - item.restocked_quantity), 0);
}

function items(count: number): string {
  return count === 1 ? '1 item' : `${String(count)} items`;
}

/**
 * What a refund (or a cancellation's refund) will do, in one sentence:
 * "Refunds $98.00 to the customer, returns 2 items to stock, emails the customer." The stock
 * clause is left out when nothing goes back to stock, the refund's when nothing is refunded.
 */
export function refundStatement({ amount, currency, restocked }: { amount: number; currency: string; restocked: number }): string {
  const clauses: string[] = [];
  if (amount > 0) clauses.push(`refunds ${formatMoney(amount, currency)} to the customer`);
  if (restocked > 0) clauses.push(`returns ${items(restocked)} to stock`);
  clauses.push('emails the customer');
  const sentence = clauses.join(', ');
  return `${sentence.charAt(0).toUpperCase()}${sentence.slice(1)}.`;
}

export const MARK_PAID_TEXT = 'Records a payment received outside the payment provider, issues the tax invoice and emails the customer.';
export const CANCEL_UNPAID_TEXT = 'Cancels the order, returns its items to stock and closes its checkout.';
export const REINSTATE_TEXT = 'Marks the order as paid again, keeping the payment that arrived after it was cancelled.';
