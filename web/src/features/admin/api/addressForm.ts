// The shipping address staff enter (docs/billing.md, "Staff's address"): in Mark as paid for goods
// with no address yet, and set or corrected on the order page before it ships. Name, line 1, city,
// postcode and country are required (checked here before sending); line 2, state and phone are
// optional and sent as null when empty. The server checks the rest (a country it ships to, a
// four-digit NZ/AU postcode, a phone of 6 to 15 digits) and names a bad member as
// `fields["shipping_address.{member}"]`, which shows beside that member's field.
import { isApiError } from '@/lib/api';
import type { ShippingAddress } from '@/lib/shipping';

export const ADDRESS_MEMBERS = ['name', 'line1', 'line2', 'city', 'state', 'postal_code', 'country', 'phone'] as const;
export type AddressMember = (typeof ADDRESS_MEMBERS)[number];

/** The form's values: each member as typed. */
export type AddressValues = Record<AddressMember, string>;
export type AddressErrors = Partial<Record<AddressMember, string>>;

/** The members staff must give (the server's required ones). */
export const REQUIRED_MEMBERS: readonly AddressMember[] = ['name', 'line1', 'city', 'postal_code', 'country'];
export const REQUIRED_MESSAGE = 'This field is required.';

/** The server's limits (StaffShippingAddress in docs/openapi.yaml). */
export const ADDRESS_MAX_LENGTH: Record<AddressMember, number> = {
  name: 100,
  line1: 100,
  line2: 100,
  city: 100,
  state: 100,
  postal_code: 12,
  country: 2,
  phone: 30,
};

/** Where the store ships by default (STOREFRONT_SHIPPING_COUNTRIES); the server decides. */
export const SHIPPING_COUNTRIES = [
  { value: 'NZ', label: 'New Zealand' },
  { value: 'AU', label: 'Australia' },
] as const;

/** What the server's 422 names the whole address by (missing, or given for a digital order). */
export const ADDRESS_FIELD = 'shipping_address';

export const EMPTY_ADDRESS: AddressValues = { name: '', line1: '', line2: '', city: '', state: '', postal_code: '', country: 'NZ', phone: '' };

/** The form's values for an address the order has (correcting it), or the empty form. */
export function addressValuesOf(address: ShippingAddress | null | undefined): AddressValues {
  if (!address) return { ...EMPTY_ADDRESS };
  return {
    name: address.name,
    line1: address.line1,
    line2: address.line2 ?? '',
    city: address.city,
    state: address.state ?? '',
    postal_code: address.postal_code,
    country: address.country,
    phone: address.phone ?? '',
  };
}

/** The client's own check: each required member that is empty (after trimming). */
export function checkAddress(values: AddressValues): AddressErrors {
  const errors: AddressErrors = {};
  for (const member of REQUIRED_MEMBERS) {
    if (!values[member].trim()) errors[member] = REQUIRED_MESSAGE;
  }
  return errors;
}

/** The body's `shipping_address`: trimmed, the country upper-cased, the optional members null when empty. */
export function addressBody(values: AddressValues): ShippingAddress {
  const optional = (text: string) => (text.trim() === '' ? null : text.trim());
  return {
    name: values.name.trim(),
    line1: values.line1.trim(),
    line2: optional(values.line2),
    city: values.city.trim(),
    state: optional(values.state),
    postal_code: values.postal_code.trim(),
    country: values.country.trim().toUpperCase(),
    phone: optional(values.phone),
  };
}

/** The server's 422 per member (`fields["shipping_address.{member}"]`), for the fields. */
export function addressErrorsOf(error: unknown): AddressErrors {
  if (!isApiError(error)) return {};
  const errors: AddressErrors = {};
  for (const member of ADDRESS_MEMBERS) {
    const message = error.fields[`${ADDRESS_FIELD}.${member}`];
    if (message) errors[member] = message;
  }
  return errors;
}

/** Whether any member has an error. */
export function hasAddressErrors(errors: AddressErrors): boolean {
  return Object.values(errors).some(Boolean);
}
