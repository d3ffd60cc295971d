// A row's actions on Subscription Management: "Cancel at period end" and "Cancel now", where the
// lifecycle allows them (the row's `allowed_actions`), "Refund latest payment" (the server says
// when there is nothing to refund), and "Open customer" (/admin/customers/:id).
// The cancel dialogs belong to the page, not the row: a cancelled row may leave the filtered list
// while its dialog's call finishes, and the dialog must stay mounted for its callbacks to run.
import { Link } from 'react-router';
import type { SubscriptionRow } from '../api/schemas';

interface SubscriptionRowActionsProps {
  row: SubscriptionRow;
  onCancel: (row: SubscriptionRow, atPeriodEnd: boolean) => void;
  onRefund: (row: SubscriptionRow) => void;
}

/** "HHTraff Terminal for ana@example.co.nz": the row in the actions' names and messages. */
export function subscriptionSubject(row: Pick<SubscriptionRow, 'product_name' | 'user_email' | 'user_id'>): string {
  return `${row.product_name} for ${row.user_email ?? row.user_id.slice(0, 8)}`;
}

export function SubscriptionRowActions({ row, onCancel, onRefund }: SubscriptionRowActionsProps) {
  const allowed = row.allowed_actions ?? [];
  const subject = subscriptionSubject(row);
  return (
    <div className="flex flex-wrap items-center gap-2">
      {allowed.includes('cancel_at_period_end') ? (
        <button type="button" className="btn-secondary" aria-label={`Cancel at period end: ${subject}`} onClick={() => onCancel(row, true)}>
          Cancel at period end
        </button>
      ) : null}
      {allowed.includes('cancel_now') ? (
        <button type="button" className="btn-secondary text-red-700" aria-label={`Cancel now: ${subject}`} onClick={() => onCancel(row, false)}>
          Cancel now
        </button>
      ) : null}
      {row.status !== 'pending' ? (
        <button type="button" className="btn-secondary" aria-label={`Refund latest payment: ${subject}`} onClick={() => onRefund(row)}>
          Refund latest payment
        </button>
      ) : null}
      <Link
        to={`/admin/customers/${encodeURIComponent(row.user_id)}`}
        aria-label={`Open customer: ${row.user_email ?? row.user_id.slice(0, 8)}`}
        className="text-sm font-medium text-brand-700 hover:underline"
      >
        Open customer
      </Link>
    </div>
  );
}
