import type { StockStatus } from '../rules';
import { stockStatusText } from '../rules';

const LEVEL_CLASSES = {
  out: 'text-red-700',
  low: 'text-yellow-700',
  available: 'text-green-700',
} as const;

const DOT_CLASSES = {
  out: 'bg-red-500',
  low: 'bg-yellow-400',
  available: 'bg-green-500',
} as const;

export function StockStatusBox({ status }: { status: StockStatus }) {
  return (
    <section aria-labelledby="stock-status-heading" className="rounded-xl border border-slate-200 bg-white p-4">
      <h2 id="stock-status-heading" className="text-sm font-semibold uppercase tracking-wide text-slate-500">
        Stock Status
      </h2>
      <p className={`mt-2 flex items-center gap-2 text-lg font-semibold ${LEVEL_CLASSES[status.level]}`} data-level={status.level}>
        <span className={`h-2.5 w-2.5 rounded-full ${DOT_CLASSES[status.level]}`} aria-hidden="true" />
        {stockStatusText(status)}
      </p>
    </section>
  );
}
