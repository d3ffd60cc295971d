// A row's actions on Order Management: only the safe ones, and only where the order allows them
// (its `allowed_statuses`): "Mark as shipped" (the carrier and tracking dialog) and "Mark as
// completed" (one click); the row's order number is its link to the order. Nothing changes an order on focus or on a change of
// a control: cancelling, refunds and payments are on the order's own page, behind their dialogs.
import { useState } from 'react';
import type { BannerMessage } from '@/components/Banner';
import { errorMessage } from '@/lib/api';
import type { OrderRow } from '../api/schemas';
import { useUpdateOrderStatus } from '../api/updateOrderStatus';
import { orderActions } from '../orderActions';
import { ShipOrderDialog } from './ShipOrderDialog';

interface OrderRowActionsProps {
  order: OrderRow;
  onMessage: (message: BannerMessage) => void;
}

export function OrderRowActions({ order, onMessage }: OrderRowActionsProps) {
  const actions = orderActions(order);
  const update = useUpdateOrderStatus();
  const [shipping, setShipping] = useState(false);
  const number = order.order_number;

  const complete = () =>
    update.mutate(
      { id: order.id, status: 'completed' },
      {
        onSuccess: () => onMessage({ tone: 'success', text: `Order ${number} is now Completed.` }),
        onError: (error) => onMessage({ tone: 'error', text: errorMessage(error, 'Failed to update the order status') }),
      },
    );

  return (
    <div className="flex flex-wrap items-center gap-2">
      {actions.ship ? (
        <button type="button" className="btn-secondary" aria-label={`Mark as shipped: ${number}`} disabled={update.isPending} onClick={() => setShipping(true)}>
          Mark as shipped
        </button>
      ) : null}
      {actions.complete ? (
        <button type="button" className="btn-secondary" aria-label={`Mark as completed: ${number}`} disabled={update.isPending} onClick={complete}>
          Mark as completed
        </button>
      ) : null}
      {shipping ? (
        <ShipOrderDialog
          open
          order={order}
          onClose={() => setShipping(false)}
          onShipped={() => {
            setShipping(false);
            onMessage({ tone: 'success', text: `Order ${number} is now Shipped.` });
          }}
          onRefused={(text) => {
            setShipping(false);
            onMessage({ tone: 'error', text });
          }}
        />
      ) : null}
    </div>
  );
}
