// Prices are typed in major units ("19.99") and handled as text: never through a float, so that
// 19.99 is 1999 cents and not 1998.

/** A price of 0 or more with at most two decimal places, as typed (no sign, no exponent). */
export const MAJOR_UNITS_PATTERN = /^\d+(\.\d{1,2})?$/;

/** "19.99" → 1999, "5" → 500, "0.5" → 50; null when the text is not a valid price. */
export function majorToMinor(text: string): number | null {
  const trimmed = text.trim();
  if (!MAJOR_UNITS_PATTERN.test(trimmed)) return null;
  const [whole = '0', fraction = ''] = trimmed.split('.');
  return Number(whole) * 100 + Number(fraction.padEnd(2, '0'));
}

/** 1999 → "19.99", 500 → "5.00": the form's text for a stored amount. */
export function minorToMajor(minor: number): string {
  const sign = minor < 0 ? '-' : '';
  const abs = Math.abs(minor);
  return `${sign}${String(Math.trunc(abs / 100))}.${String(abs % 100).padStart(2, '0')}`;
}
