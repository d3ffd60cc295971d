// "Mark as shipped": the optional carrier and tracking number, sent with status 'shipped'. The
// server mails them to the customer ("Your order ... has shipped"); its field errors (422) show
// beside the inputs and the dialog stays open with the values kept. A refused move (409
// invalid_transition: the order moved meanwhile) closes it and goes to the page's alert.
import { useRef, useState } from 'react';
import { FormDialog } from '@/components/detail';
import { FormField } from '@/components/FormField';
import { errorMessage, isApiError } from '@/lib/api';
import type { OrderDetail, OrderRow } from '../api/schemas';
import { isRefusedMove } from '../api/invalidate';
import { useUpdateOrderStatus } from '../api/updateOrderStatus';

/** The server's limits (billing/orders/shipping.h). */
export const MAX_CARRIER = 60;
export const MAX_TRACKING_NUMBER = 60;

interface ShipOrderDialogProps {
  open: boolean;
  order: Pick<OrderRow, 'id' | 'order_number'> & Partial<Pick<OrderDetail, 'carrier' | 'tracking_number'>>;
  onClose: () => void;
  onShipped: () => void;
  /** A 409 invalid_transition: the server's message, for the page's alert. */
  onRefused?: (message: string) => void;
}

export function ShipOrderDialog({ open, order, onClose, onShipped, onRefused }: ShipOrderDialogProps) {
  const update = useUpdateOrderStatus();
  const [carrier, setCarrier] = useState(order.carrier ?? '');
  const [tracking, setTracking] = useState(order.tracking_number ?? '');
  const carrierRef = useRef<HTMLInputElement>(null);
  const fields = isApiError(update.error) ? update.error.fields : {};
  const general = update.error && !fields.carrier && !fields.tracking_number ? errorMessage(update.error, 'Failed to update the order status') : null;

  const close = () => {
    update.reset();
    onClose();
  };
  const submit = () => {
    update.mutate(
      { id: order.id, status: 'shipped', carrier, tracking_number: tracking },
      {
        onSuccess: () => {
          update.reset();
          onShipped();
        },
        onError: (error) => {
          if (!onRefused || !isRefusedMove(error)) return;
          update.reset();
          onRefused(errorMessage(error));
        },
      },
    );
  };

  return (
    <FormDialog
      open={open}
      onClose={close}
      title={`Mark order ${order.order_number} as shipped`}
      description="The customer is emailed that their order has shipped, with the carrier and tracking number if you give them."
      initialFocusRef={carrierRef}
      closeButton={false}
      confirmLabel="Mark as shipped"
      pendingLabel="Saving..."
      pending={update.isPending}
      error={general}
      onSubmit={submit}
    >
      <FormField
        label="Carrier (optional)"
        name="carrier"
        inputRef={carrierRef}
        value={carrier}
        maxLength={MAX_CARRIER}
        error={fields.carrier}
        placeholder="NZ Post"
        onChange={(event) => setCarrier(event.target.value)}
      />
      <FormField
        label="Tracking number (optional)"
        name="tracking_number"
        value={tracking}
        maxLength={MAX_TRACKING_NUMBER}
        error={fields.tracking_number}
        onChange={(event) => setTracking(event.target.value)}
      />
    </FormDialog>
  );
}
