// "Add address" / "Change address" on the order page's Shipping card: where an order's goods go,
// set or corrected while the order is pending or paid (PUT .../shipping-address). Prefilled when
// correcting. The required members are checked before sending; the server's error for a member
// (422) shows beside its field and the dialog stays open with the values kept. A refusal (409: the
// order shipped or ended meanwhile, is digital, or a refund is with the provider) closes the dialog
// and goes to the page's alert.
import { useRef, useState } from 'react';
import { FormDialog } from '@/components/detail';
import { errorMessage, isApiError } from '@/lib/api';
import { addressBody, addressErrorsOf, addressValuesOf, checkAddress, hasAddressErrors, type AddressErrors, type AddressMember } from '../api/addressForm';
import type { OrderDetail } from '../api/schemas';
import { isRefusedAddressChange, useSetShippingAddress } from '../api/setShippingAddress';
import { AddressFields } from './AddressFields';

interface ShippingAddressDialogProps {
  order: Pick<OrderDetail, 'id' | 'order_number' | 'shipping_address'>;
  onClose: () => void;
  onSaved: () => void;
  /** A 409 (address_locked, nothing_to_ship, action_in_progress): the server's message, for the page's alert. */
  onRefused: (message: string) => void;
}

export function ShippingAddressDialog({ order, onClose, onSaved, onRefused }: ShippingAddressDialogProps) {
  const save = useSetShippingAddress();
  const [values, setValues] = useState(() => addressValuesOf(order.shipping_address));
  const [errors, setErrors] = useState<AddressErrors>({});
  const [failure, setFailure] = useState<string | null>(null);
  const nameRef = useRef<HTMLInputElement>(null);
  const correcting = Boolean(order.shipping_address);

  const change = (member: AddressMember, value: string) => setValues((current) => ({ ...current, [member]: value }));
  const submit = () => {
    const missing = checkAddress(values);
    setErrors(missing);
    setFailure(null);
    if (hasAddressErrors(missing)) return;
    save.mutate(
      { id: order.id, shipping_address: addressBody(values) },
      {
        onSuccess: onSaved,
        onError: (problem) => {
          if (isRefusedAddressChange(problem)) {
            onRefused(errorMessage(problem));
            return;
          }
          const members = addressErrorsOf(problem);
          setErrors(members);
          if (hasAddressErrors(members)) return;
          const whole = isApiError(problem) ? problem.fields.shipping_address : undefined;
          setFailure(whole ?? errorMessage(problem, 'Failed to save the shipping address'));
        },
      },
    );
  };

  return (
    <FormDialog
      title={`Shipping address of order ${order.order_number}`}
      description={
        correcting
          ? 'Correct where the goods go. The order’s history records the change.'
          : 'Where the goods go. The order’s history records it.'
      }
      size="lg"
      initialFocusRef={nameRef}
      confirmLabel="Save address"
      pendingLabel="Saving..."
      pending={save.isPending}
      error={failure}
      onSubmit={submit}
      onClose={onClose}
    >
      <AddressFields values={values} errors={errors} onChange={change} firstFieldRef={nameRef} />
    </FormDialog>
  );
}
