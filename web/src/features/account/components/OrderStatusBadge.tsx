import { orderBadge, type BadgeTone } from '../rules';

const TONE_CLASSES: Record<BadgeTone, string> = {
  green: 'bg-green-100 text-green-800',
  blue: 'bg-blue-100 text-blue-800',
  grey: 'bg-slate-100 text-slate-700',
};

/** Completed green, shipped blue, others grey. */
export function OrderStatusBadge({ status }: { status: string }) {
  const badge = orderBadge(status);
  return (
    <span className={`inline-block rounded-full px-3 py-1 text-xs font-semibold ${TONE_CLASSES[badge.tone]}`} data-tone={badge.tone}>
      {badge.label}
    </span>
  );
}
