// The order page's actions: only those its status allows (orderActions, from the server's
// `allowed_statuses`, `cancellable` and `refundable_amount`). Each is a button; every change
// goes through a click, and each destructive one through a dialog that says what it will do.
// Mark as completed is one click (nothing to undo); the others open their dialog. A refused move
// (409 invalid_transition) shows the server's message in the page's alert.
import { useState } from 'react';
import type { BannerMessage } from '@/components/Banner';
import { ConfirmDialog } from '@/components/ConfirmDialog';
import { errorMessage } from '@/lib/api';
import { formatMoney } from '@/lib/format';
import type { OrderDetail, OrderStatus } from '../api/schemas';
import { useUpdateOrderStatus } from '../api/updateOrderStatus';
import { CANCEL_UNPAID_TEXT, orderActions, REINSTATE_TEXT } from '../orderActions';
import { statusLabel } from '../status';
import { CancelOrderDialog } from './CancelOrderDialog';
import { MarkPaidDialog } from './MarkPaidDialog';
import { RefundDialog } from './RefundDialog';
import { ShipOrderDialog } from './ShipOrderDialog';

type Open = 'paid' | 'ship' | 'reinstate' | 'refund' | 'cancel-unpaid' | 'cancel-paid';

interface OrderActionsProps {
  order: OrderDetail;
  onMessage: (message: BannerMessage) => void;
}

export function OrderActions({ order, onMessage }: OrderActionsProps) {
  const actions = orderActions(order);
  const update = useUpdateOrderStatus();
  const [open, setOpen] = useState<Open | null>(null);
  const close = () => setOpen(null);
  const moved = (status: OrderStatus) => {
    setOpen(null);
    onMessage({ tone: 'success', text: `Order ${order.order_number} is now ${statusLabel(status)}.` });
  };
  const refused = (text: string) => {
    setOpen(null);
    onMessage({ tone: 'error', text });
  };
  const move = (status: OrderStatus) =>
    update.mutate(
      { id: order.id, status },
      {
        onSuccess: () => moved(status),
        onError: (error) => refused(errorMessage(error, 'Failed to update the order status')),
      },
    );

  const buttons: { key: string; label: string; show: boolean; onClick: () => void; danger?: boolean }[] = [
    { key: 'paid', label: 'Mark as paid', show: actions.markPaid, onClick: () => setOpen('paid') },
    { key: 'ship', label: 'Mark as shipped', show: actions.ship, onClick: () => setOpen('ship') },
    { key: 'complete', label: 'Mark as completed', show: actions.complete, onClick: () => move('completed') },
    { key: 'reinstate', label: 'Reinstate', show: actions.reinstate, onClick: () => setOpen('reinstate') },
    { key: 'refund', label: 'Refund', show: actions.refund, onClick: () => setOpen('refund') },
    { key: 'cancel', label: 'Cancel order', show: actions.cancelUnpaid || actions.cancelPaid, danger: true, onClick: () => setOpen(actions.cancelPaid ? 'cancel-paid' : 'cancel-unpaid') },
  ];
  const shown = buttons.filter((button) => button.show);

  // The dialogs stay mounted while the order refreshes after a change (it may then allow no
  // action at all): their mutation's answer must still reach the page's message.
  return (
    <>
      {shown.length > 0 ? (
        <div role="group" aria-label="Order actions" className="mt-4 flex flex-wrap justify-end gap-3">
          {shown.map((button) => (
            <button
              key={button.key}
              type="button"
              className={button.danger ? 'btn-secondary border-red-300 text-red-700 hover:bg-red-50' : 'btn-secondary'}
              disabled={update.isPending}
              onClick={button.onClick}
            >
              {button.label}
            </button>
          ))}
        </div>
      ) : null}
      {open === 'paid' ? <MarkPaidDialog order={order} onClose={close} onPaid={() => moved('paid')} onRefused={refused} /> : null}
      {open === 'ship' ? <ShipOrderDialog open order={order} onClose={close} onShipped={() => moved('shipped')} onRefused={refused} /> : null}
      {open === 'reinstate' ? (
        <ConfirmDialog
          open
          title={`Reinstate order ${order.order_number}`}
          message={REINSTATE_TEXT}
          confirmLabel="Reinstate"
          busy={update.isPending}
          onConfirm={() => move('paid')}
          onCancel={close}
        />
      ) : null}
      {open === 'cancel-unpaid' ? (
        <ConfirmDialog
          open
          title={`Cancel order ${order.order_number}`}
          message={CANCEL_UNPAID_TEXT}
          confirmLabel="Cancel order"
          cancelLabel="Keep the order"
          danger
          busy={update.isPending}
          onConfirm={() => move('cancelled')}
          onCancel={close}
        />
      ) : null}
      {open === 'cancel-paid' ? <CancelOrderDialog order={order} onClose={close} onCancelled={() => moved('cancelled')} onRefused={refused} /> : null}
      {open === 'refund' ? (
        <RefundDialog
          order={order}
          onClose={close}
          onRefused={refused}
          onRefunded={(amount) => {
            setOpen(null);
            onMessage({ tone: 'success', text: `Refunded ${formatMoney(amount, order.currency)} of order ${order.order_number}.` });
          }}
        />
      ) : null}
    </>
  );
}
