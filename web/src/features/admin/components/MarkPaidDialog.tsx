// "Mark as paid": an unpaid order whose money came outside the payment provider (a bank
// transfer). The payment's reference is required (one line, at most 100 characters); the server
// then records the payment, issues the tax invoice and emails the customer. An order of goods with
// no address yet (the buyer left the payment page) also asks where they go, sent in the same
// request (docs/billing.md, "Staff's address"). Field errors (422: the reference, an address member,
// or the address as a whole) show beside their inputs; a refused move (409) closes the dialog and
// goes to the page's alert.
import { useId, useRef, useState } from 'react';
import { FormDialog } from '@/components/detail';
import { FormField } from '@/components/FormField';
import { errorMessage, isApiError } from '@/lib/api';
import {
  ADDRESS_FIELD,
  addressBody,
  addressErrorsOf,
  checkAddress,
  EMPTY_ADDRESS,
  hasAddressErrors,
  type AddressErrors,
  type AddressMember,
} from '../api/addressForm';
import { isRefusedMove } from '../api/invalidate';
import type { OrderDetail } from '../api/schemas';
import { MAX_PAYMENT_REFERENCE, useUpdateOrderStatus } from '../api/updateOrderStatus';
import { MARK_PAID_TEXT } from '../orderActions';
import { AddressFields } from './AddressFields';

export const PAYMENT_REFERENCE_REQUIRED = 'Enter the payment reference, e.g. the bank transfer reference.';
export const ADDRESS_NEEDED_TEXT = 'This order has goods to send and no address yet: enter where they go.';

interface MarkPaidDialogProps {
  order: Pick<OrderDetail, 'id' | 'order_number' | 'has_physical_items' | 'shipping_address'>;
  onClose: () => void;
  onPaid: () => void;
  onRefused: (message: string) => void;
}

/** Goods to send and nowhere to send them: Mark as paid must carry the address. */
export function needsAddress(order: Pick<OrderDetail, 'has_physical_items' | 'shipping_address'>): boolean {
  return order.has_physical_items && !order.shipping_address;
}

export function MarkPaidDialog({ order, onClose, onPaid, onRefused }: MarkPaidDialogProps) {
  const update = useUpdateOrderStatus();
  const askAddress = needsAddress(order);
  const [reference, setReference] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [address, setAddress] = useState(() => ({ ...EMPTY_ADDRESS }));
  const [addressErrors, setAddressErrors] = useState<AddressErrors>({});
  const [addressError, setAddressError] = useState<string | undefined>();
  const [failure, setFailure] = useState<string | null>(null);
  const inputRef = useRef<HTMLInputElement>(null);
  const sentenceId = useId();
  const addressErrorId = useId();

  const changeAddress = (member: AddressMember, value: string) => setAddress((current) => ({ ...current, [member]: value }));
  const submit = () => {
    const text = reference.trim();
    const missing = askAddress ? checkAddress(address) : {};
    setError(text ? undefined : PAYMENT_REFERENCE_REQUIRED);
    setAddressErrors(missing);
    setAddressError(undefined);
    setFailure(null);
    if (!text || hasAddressErrors(missing)) return;
    update.mutate(
      { id: order.id, status: 'paid', payment_reference: text, ...(askAddress ? { shipping_address: addressBody(address) } : {}) },
      {
        onSuccess: onPaid,
        onError: (problem) => {
          if (isRefusedMove(problem)) {
            onRefused(errorMessage(problem));
            return;
          }
          const fields = isApiError(problem) ? problem.fields : {};
          const members = addressErrorsOf(problem);
          const whole = fields[ADDRESS_FIELD];
          setError(fields.payment_reference);
          setAddressErrors(members);
          // The address as a whole has its line in the fieldset; without the fieldset it is the form's failure.
          if (whole && askAddress) setAddressError(whole);
          if (!fields.payment_reference && !hasAddressErrors(members) && !(whole && askAddress)) {
            setFailure(whole ?? errorMessage(problem, 'Failed to mark the order as paid'));
          }
        },
      },
    );
  };

  return (
    <FormDialog
      title={`Mark order ${order.order_number} as paid`}
      description={MARK_PAID_TEXT}
      size={askAddress ? 'lg' : 'md'}
      initialFocusRef={inputRef}
      confirmLabel="Mark as paid"
      pendingLabel="Saving..."
      pending={update.isPending}
      error={failure}
      onSubmit={submit}
      onClose={onClose}
    >
      <FormField
        label="Payment reference"
        name="payment_reference"
        inputRef={inputRef}
        required
        requiredMark
        maxLength={MAX_PAYMENT_REFERENCE}
        hint="e.g. the bank transfer reference"
        value={reference}
        error={error}
        onChange={(event) => setReference(event.target.value)}
      />
      {askAddress ? (
        <fieldset className="space-y-3" aria-describedby={addressError ? `${sentenceId} ${addressErrorId}` : sentenceId}>
          <legend className="text-sm font-semibold text-slate-900">Shipping address</legend>
          <p id={sentenceId} className="text-sm text-slate-600">
            {ADDRESS_NEEDED_TEXT}
          </p>
          {addressError ? (
            <p id={addressErrorId} className="text-sm text-red-700">
              {addressError}
            </p>
          ) : null}
          <AddressFields values={address} errors={addressErrors} onChange={changeAddress} />
        </fieldset>
      ) : null}
    </FormDialog>
  );
}
