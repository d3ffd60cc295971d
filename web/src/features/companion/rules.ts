// The WireWrite staff screens' display rules (spec section 2), pure so they are tested alone.
import { formatDate } from '@/lib/format';

/** 'N month(s)' or 'Lifetime'. */
export function durationText(months: number | null): string {
  if (months === null) return 'Lifetime';
  return `${String(months)} month${months === 1 ? '' : 's'}`;
}

/** 'uses / max' or 'uses / ∞'. */
export function usageText(uses: number, max: number | null): string {
  return `${String(uses)} / ${max === null ? '∞' : String(max)}`;
}

/** An en-NZ short date or 'Never'. */
export function expiryText(expiresAt: string | null): string {
  return expiresAt ? formatDate(expiresAt) : 'Never';
}

/** A number with exactly one decimal ('12.5'). */
export function oneDecimal(value: number): string {
  return value.toFixed(1);
}

/** A worker's name for people: their email when they never gave one (if known), else 'Unknown'. */
export function workerName(name: string | null | undefined, email?: string | null): string {
  if (name?.trim()) return name;
  return email?.trim() ? email : 'Unknown';
}

/** Where the WireWrite sub-pages' "back" goes. */
export const WIREWRITE_ADMIN = { to: '/admin/wirewrite', label: 'Back to WireWrite Admin' };
