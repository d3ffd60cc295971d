// The shipping address fields staff fill in (Mark as paid of goods with no address, and the
// Shipping card's Add / Change address): name, two lines, city, state, postcode, country and phone,
// each labelled, the required ones marked, with its error beside it (the client's "This field is
// required." or the server's `fields["shipping_address.{member}"]`).
import type { Ref } from 'react';
import { FormField } from '@/components/FormField';
import { SelectField } from '@/components/SelectField';
import { countryName } from '@/lib/shipping';
import { ADDRESS_MAX_LENGTH, SHIPPING_COUNTRIES, type AddressErrors, type AddressMember, type AddressValues } from '../api/addressForm';

interface AddressFieldsProps {
  values: AddressValues;
  errors: AddressErrors;
  onChange: (member: AddressMember, value: string) => void;
  /** The name input, for a dialog that opens on it. */
  firstFieldRef?: Ref<HTMLInputElement>;
}

export function AddressFields({ values, errors, onChange, firstFieldRef }: AddressFieldsProps) {
  // An address already held in a country not on the list (the server's list is configurable) stays choosable.
  const countries: { value: string; label: string }[] = [...SHIPPING_COUNTRIES];
  if (values.country && !countries.some((country) => country.value === values.country)) {
    countries.push({ value: values.country, label: countryName(values.country) });
  }
  const field = (member: AddressMember, label: string, required: boolean) => ({
    label,
    name: `shipping_address.${member}`,
    value: values[member],
    maxLength: ADDRESS_MAX_LENGTH[member],
    error: errors[member],
    required,
    requiredMark: required,
    onChange: (event: { target: { value: string } }) => onChange(member, event.target.value),
  });

  return (
    <div className="grid gap-4 sm:grid-cols-2">
      <FormField {...field('name', 'Name', true)} inputRef={firstFieldRef} wrapperClassName="sm:col-span-2" />
      <FormField {...field('line1', 'Address line 1', true)} wrapperClassName="sm:col-span-2" />
      <FormField {...field('line2', 'Address line 2 (optional)', false)} wrapperClassName="sm:col-span-2" />
      <FormField {...field('city', 'City', true)} />
      <FormField {...field('state', 'State (optional)', false)} />
      <FormField {...field('postal_code', 'Postcode', true)} />
      <SelectField
        label="Country"
        name="shipping_address.country"
        required
        value={values.country}
        options={countries}
        error={errors.country}
        onChange={(event) => onChange('country', event.target.value)}
      />
      <FormField {...field('phone', 'Phone (optional)', false)} type="tel" wrapperClassName="sm:col-span-2" />
    </div>
  );
}
