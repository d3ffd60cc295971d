// The Refund dialog's lines: for each item, how many of its units to refund (0 up to what is not
// refunded yet). The server's error of a line (`lines[i]`, i its place among the lines sent) shows
// beside it.
import { formatMoney } from '@/lib/format';
import type { OrderDetail } from '../api/schemas';

type Item = OrderDetail['items'][number];

/** Units of the line that can still be refunded. */
export function refundableUnits(item: Item): number {
  return Math.max(0, item.quantity - item.refunded_quantity);
}

interface RefundLinesProps {
  items: Item[];
  currency: string;
  quantities: Record<string, number>;
  /** The line's error, by item id. */
  errors: Record<string, string | undefined>;
  onChange: (itemId: string, quantity: number) => void;
}

export function RefundLines({ items, currency, quantities, errors, onChange }: RefundLinesProps) {
  return (
    <div className="overflow-x-auto">
      <table className="min-w-full text-left text-sm">
        <caption className="text-left text-sm font-medium text-slate-700">Items to refund</caption>
        <thead className="text-xs uppercase text-slate-500">
          <tr>
            <th scope="col" className="py-2 pr-3">Product</th>
            <th scope="col" className="py-2 pr-3">Unit price</th>
            <th scope="col" className="py-2 pr-3">Refunded</th>
            <th scope="col" className="py-2">Refund</th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {items.map((item) => {
            const max = refundableUnits(item);
            const error = errors[item.id];
            const errorId = `refund-line-${item.id}-error`;
            return (
              <tr key={item.id}>
                <td className="py-2 pr-3">{item.product_name}</td>
                <td className="py-2 pr-3">{formatMoney(item.unit_amount, currency)}</td>
                <td className="py-2 pr-3">
                  {item.refunded_quantity} of {item.quantity}
                </td>
                <td className="py-2">
                  {max === 0 ? (
                    <span className="text-slate-500">All refunded</span>
                  ) : (
                    <select
                      className="field-input w-auto py-1"
                      aria-label={`Quantity to refund: ${item.product_name}`}
                      aria-invalid={error ? true : undefined}
                      aria-describedby={error ? errorId : undefined}
                      value={String(quantities[item.id] ?? 0)}
                      onChange={(event) => onChange(item.id, Number(event.target.value))}
                    >
                      {Array.from({ length: max + 1 }, (_, n) => (
                        <option key={n} value={String(n)}>
                          {n}
                        </option>
                      ))}
                    </select>
                  )}
                  {error ? (
                    <p id={errorId} className="mt-1 text-sm text-red-700">
                      {error}
                    </p>
                  ) : null}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
