import { formatDate } from '@/lib/format';

/** A moment with its time, or the word for none ('—', 'Never'). */
export function when(value: string | null, never = '—'): string {
  return value ? formatDate(value, { withTime: true }) : never;
}
