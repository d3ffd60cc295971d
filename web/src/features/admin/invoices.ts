// The books' document kinds as staff read them (the register, an order's documents).

export const INVOICE_KINDS = [
  { value: 'invoice', label: 'Tax invoice', plural: 'Tax invoices' },
  { value: 'credit_note', label: 'Credit note', plural: 'Credit notes' },
  { value: 'debit_note', label: 'Debit note', plural: 'Debit notes' },
] as const;

/** 'credit_note' → 'Credit note'; an unknown kind as it is. */
export function invoiceKindLabel(kind: string): string {
  return INVOICE_KINDS.find((k) => k.value === kind)?.label ?? kind;
}

/** The printable document of a number (the account's invoice page, which staff at aal2 may open). */
export function invoiceHref(number: string): string {
  return `/account/invoices/${encodeURIComponent(number)}`;
}
