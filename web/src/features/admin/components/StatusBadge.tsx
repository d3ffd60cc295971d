// Status pills. Orders: completed green, shipped blue, others grey (spec section 4).

const TONES = {
  green: 'bg-green-100 text-green-800',
  blue: 'bg-blue-100 text-blue-800',
  grey: 'bg-slate-100 text-slate-700',
  yellow: 'bg-yellow-100 text-yellow-800',
  red: 'bg-red-100 text-red-800',
} as const;
type Tone = keyof typeof TONES;

/** 'paid_after_cancellation' → 'Paid after cancellation'. */
export function statusLabel(status: string): string {
  const words = status.replace(/_/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

export function orderTone(status: string): Tone {
  if (status === 'completed') return 'green';
  if (status === 'shipped') return 'blue';
  if (status === 'refunded') return 'yellow';
  return 'grey';
}

export function subscriptionTone(status: string): Tone {
  if (status === 'active') return 'green';
  if (status === 'trialing' || status === 'pending') return 'yellow';
  if (status === 'cancelled' || status === 'expired') return 'red';
  return 'grey';
}

export function StatusBadge({ status, tone }: { status: string; tone: Tone }) {
  return (
    <span className={`inline-block rounded-full px-3 py-1 text-xs font-semibold ${TONES[tone]}`} data-tone={tone}>
      {statusLabel(status)}
    </span>
  );
}
