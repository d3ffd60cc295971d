// The order status dropdown: pending, paid, shipped, completed, cancelled, set directly with no
// ordering restriction (spec section 4). The lists reload after the change. Choosing Shipped opens
// the "Mark as shipped" dialog for the carrier and tracking number (ShipOrderDialog).
import { useState } from 'react';
import { ORDER_STATUSES, type OrderDetail, type OrderRow, type OrderStatus } from '../api/schemas';
import { useUpdateOrderStatus } from '../api/updateOrderStatus';
import { statusLabel } from '../status';
import { ShipOrderDialog } from './ShipOrderDialog';

interface OrderStatusSelectProps {
  order: Pick<OrderRow, 'id' | 'order_number' | 'status'> & Partial<Pick<OrderDetail, 'carrier' | 'tracking_number'>>;
  onChanged: (status: OrderStatus) => void;
  onFailed: (error: Error) => void;
}

function isOrderStatus(value: string): value is OrderStatus {
  return (ORDER_STATUSES as readonly string[]).includes(value);
}

export function OrderStatusSelect({ order, onChanged, onFailed }: OrderStatusSelectProps) {
  const update = useUpdateOrderStatus();
  const [shipping, setShipping] = useState(false);
  return (
    <>
      <select
        aria-label={`Status of order ${order.order_number}`}
        className="field-input w-auto py-1"
        value={isOrderStatus(order.status) ? order.status : ''}
        disabled={update.isPending}
        onChange={(event) => {
          const status = event.target.value;
          if (!isOrderStatus(status) || status === order.status) return;
          if (status === 'shipped') {
            setShipping(true);
            return;
          }
          update.mutate({ id: order.id, status }, { onSuccess: () => onChanged(status), onError: onFailed });
        }}
      >
        {isOrderStatus(order.status) ? null : <option value="">{statusLabel(order.status)}</option>}
        {ORDER_STATUSES.map((status) => (
          <option key={status} value={status}>
            {statusLabel(status)}
          </option>
        ))}
      </select>
      {shipping ? (
        <ShipOrderDialog
          open
          order={order}
          onClose={() => setShipping(false)}
          onShipped={() => {
            setShipping(false);
            onChanged('shipped');
          }}
        />
      ) : null}
    </>
  );
}
