// Shipping addresses and tracking as orders carry them (docs/billing.md, "Shipping and
// fulfilment"): the address is a snapshot taken at checkout, null for a digital order. Shared by
// the customer's order history and the staff's order screens.
import { z } from '@/lib/schema';

export const shippingAddressSchema = z.object({
  name: z.string(),
  line1: z.string(),
  line2: z.string().nullable(),
  city: z.string(),
  /** Stripe collects it where a country has states (AU); the local test page does not. */
  state: z.string().nullable().default(null),
  postal_code: z.string(),
  /** ISO 3166-1 alpha-2. */
  country: z.string(),
  phone: z.string().nullable(),
});
export type ShippingAddress = z.infer<typeof shippingAddressSchema>;

/** The fulfilment fields of an order's JSON (the server always sends them; null when unset). */
export const fulfilmentFields = {
  shipping_address: shippingAddressSchema.nullish(),
  carrier: z.string().nullish(),
  tracking_number: z.string().nullish(),
  shipped_at: z.string().nullish(),
};

const COUNTRY_NAMES: Record<string, string> = { NZ: 'New Zealand', AU: 'Australia' };

export function countryName(code: string): string {
  try {
    return COUNTRY_NAMES[code] ?? new Intl.DisplayNames(['en-NZ'], { type: 'region' }).of(code) ?? code;
  } catch {
    return code;
  }
}

/** The address as a label prints it, one line each (the phone is not part of it). */
export function addressLines(address: ShippingAddress): string[] {
  const lines = [address.name, address.line1];
  if (address.line2) lines.push(address.line2);
  lines.push([address.city, address.state, address.postal_code].filter(Boolean).join(' '));
  lines.push(countryName(address.country));
  return lines.filter((line) => line.trim() !== '');
}

/** "NZ Post LY123456789NZ", or whichever of the two there is; null when neither. */
export function trackingText(order: { carrier?: string | null; tracking_number?: string | null }): string | null {
  const parts = [order.carrier, order.tracking_number].filter((part): part is string => Boolean(part));
  return parts.length > 0 ? parts.join(' ') : null;
}
