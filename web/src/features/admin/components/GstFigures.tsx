// The GST report's figures: New Zealand dollars as a GST return asks for them, then any other
// currency in its own table, in its own currency (never converted here).
import { formatCount, formatMoney } from '@/lib/format';
import type { GstCurrency } from '../api/getGstReport';

export const TOTAL_SALES = 'Total sales and income (including GST and zero-rated supplies)';
export const ZERO_RATED = 'Zero-rated supplies';
export const GST_ON_SALES = 'GST on sales';
export const OTHER_CURRENCIES_NOTE =
  'Sales in other currencies are listed in their own currency: convert them to New Zealand dollars at the exchange rate you use for your return.';

const EMPTY_NZD: GstCurrency = {
  currency: 'NZD',
  invoiced_amount: 0,
  credited_amount: 0,
  net_amount: 0,
  gst_amount: 0,
  zero_rated_amount: 0,
  invoice_count: 0,
  credit_note_count: 0,
};

function Figure({ term, value, strong = false }: { term: string; value: string; strong?: boolean }) {
  return (
    <div className="flex flex-wrap items-baseline justify-between gap-2 py-2">
      <dt className="text-slate-700">{term}</dt>
      <dd className={strong ? 'text-lg font-semibold text-slate-900' : 'text-slate-900'}>{value}</dd>
    </div>
  );
}

/** The NZD row (zeros when the period has no NZD document). */
export function NzdFigures({ row = EMPTY_NZD }: { row?: GstCurrency | undefined }) {
  const money = (amount: number) => formatMoney(amount, 'NZD');
  return (
    <section aria-labelledby="gst-nzd" className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm">
      <h2 id="gst-nzd" className="text-lg font-semibold text-slate-900">
        New Zealand dollars (NZD)
      </h2>
      <dl className="mt-3 divide-y divide-slate-100 text-sm">
        <Figure term={TOTAL_SALES} value={money(row.net_amount)} strong />
        <Figure term={ZERO_RATED} value={money(row.zero_rated_amount)} strong />
        <Figure term={GST_ON_SALES} value={money(row.gst_amount)} strong />
        <Figure term="Invoiced" value={money(row.invoiced_amount)} />
        <Figure term="Credited" value={money(row.credited_amount)} />
        <Figure term="Tax invoices" value={formatCount(row.invoice_count)} />
        <Figure term="Credit notes" value={formatCount(row.credit_note_count)} />
      </dl>
    </section>
  );
}

const HEADERS = ['Currency', 'Total sales and income', ZERO_RATED, GST_ON_SALES, 'Invoiced', 'Credited', 'Tax invoices', 'Credit notes'];

export function OtherCurrencies({ rows }: { rows: GstCurrency[] }) {
  return (
    <section aria-labelledby="gst-other" className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm">
      <h2 id="gst-other" className="text-lg font-semibold text-slate-900">
        Other currencies
      </h2>
      <p className="mt-1 text-sm text-slate-600">{OTHER_CURRENCIES_NOTE}</p>
      <div className="mt-3 overflow-x-auto">
        <table className="min-w-full text-left text-sm">
          <caption className="sr-only">Other currencies</caption>
          <thead className="text-xs uppercase text-slate-500">
            <tr>
              {HEADERS.map((header) => (
                <th key={header} scope="col" className="py-2 pr-4">
                  {header}
                </th>
              ))}
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {rows.map((row) => (
              <tr key={row.currency}>
                <th scope="row" className="py-2 pr-4 font-medium">
                  {row.currency}
                </th>
                <td className="py-2 pr-4">{formatMoney(row.net_amount, row.currency)}</td>
                <td className="py-2 pr-4">{formatMoney(row.zero_rated_amount, row.currency)}</td>
                <td className="py-2 pr-4">{formatMoney(row.gst_amount, row.currency)}</td>
                <td className="py-2 pr-4">{formatMoney(row.invoiced_amount, row.currency)}</td>
                <td className="py-2 pr-4">{formatMoney(row.credited_amount, row.currency)}</td>
                <td className="py-2 pr-4">{formatCount(row.invoice_count)}</td>
                <td className="py-2 pr-4">{formatCount(row.credit_note_count)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
