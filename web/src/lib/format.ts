// The one money formatter and the one date formatter of the app.

const moneyFormatters = new Map<string, Intl.NumberFormat>();

/**
 * Formats an amount held in minor units (cents) for the en-NZ locale:
 * `formatMoney(1500)` is "$15.00", `formatMoney(1500, 'AUD')` is "A$15.00".
 */
export function formatMoney(minorUnits: number, currency = 'NZD'): string {
  const code = currency.toUpperCase();
  let formatter = moneyFormatters.get(code);
  if (!formatter) {
    formatter = new Intl.NumberFormat('en-NZ', { style: 'currency', currency: code });
    moneyFormatters.set(code, formatter);
  }
  return formatter.format(minorUnits / 100);
}

/** Every date shown to a person is New Zealand time, whatever the browser's zone. */
export const DISPLAY_TIME_ZONE = 'Pacific/Auckland';

const dateFormatter = new Intl.DateTimeFormat('en-NZ', {
  timeZone: DISPLAY_TIME_ZONE,
  day: 'numeric',
  month: 'short',
  year: 'numeric',
});

const dateTimeFormatter = new Intl.DateTimeFormat('en-NZ', {
  timeZone: DISPLAY_TIME_ZONE,
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  hour: 'numeric',
  minute: '2-digit',
});

function toDate(value: string | Date): Date | null {
  const date = value instanceof Date ? value : new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

/**
 * Formats an instant (ISO-8601 string or Date) as a Pacific/Auckland date, e.g. "2 Oct 2025";
 * with `withTime`, "2 Oct 2025, 12:30 am". An unparseable value gives an empty string.
 */
export function formatDate(value: string | Date, options: { withTime?: boolean } = {}): string {
  const date = toDate(value);
  if (!date) return '';
  return (options.withTime ? dateTimeFormatter : dateFormatter).format(date);
}

/** How often a plan bills, the spec's way ('$6 per month'): 'per month', 'per year', 'every 3 months'. */
export function billingFrequencyText(value: number, unit: string): string {
  if (value === 1) return `per ${unit}`;
  return `every ${String(value)} ${unit}s`;
}

const countFormatter = new Intl.NumberFormat('en-NZ', { maximumFractionDigits: 0 });

/** A count with the en-NZ thousands separator ("10,000"); `orMore` adds "+" (a capped search total). */
export function formatCount(value: number, options: { orMore?: boolean } = {}): string {
  return countFormatter.format(value) + (options.orMore ? '+' : '');
}
