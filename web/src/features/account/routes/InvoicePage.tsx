// /account/invoices/:number: one tax invoice or credit note as issued, laid out for printing (the
// print stylesheet below hides the site's header and footer; the browser's "Save as PDF" makes the
// PDF). `?staff=1` (the admin order detail's link) reads it through the staff endpoint.
import { useParams, useSearchParams } from 'react-router';
import { LOAD_ERROR_CLASS, LoadError } from '@/components/list/LoadError';
import { Loading } from '@/components/Spinner';
import { isApiError } from '@/lib/api';
import { formatMoney } from '@/lib/format';
import { SITE_NAME, useDocumentHead } from '@/lib/head';
import { useInvoice, type Invoice } from '../api/invoices';
import { addressLines } from '@/lib/shipping';

/** "2026-11-27" -> "27 November 2026" (the New Zealand date the server recorded; no time zone maths). */
function longDate(isoDate: string): string {
  const [y, m, d] = isoDate.split('-').map(Number);
  if (!y || !m || !d) return isoDate;
  return new Date(Date.UTC(y, m - 1, d)).toLocaleDateString('en-NZ', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });
}

export function InvoicePage() {
  const { number = '' } = useParams();
  const [searchParams] = useSearchParams();
  const staff = searchParams.get('staff') === '1';
  const query = useInvoice(number, staff);
  useDocumentHead({ title: `${number} | ${SITE_NAME}`, robots: 'noindex' });

  if (query.isPending) return <Loading text="Loading invoice..." />;
  if (!query.data) {
    const missing = isApiError(query.error) && query.error.status === 404;
    return (
      <div className="mx-auto max-w-3xl px-4 py-12">
        <h1 className="text-2xl font-bold text-slate-900">{missing ? 'Invoice not found' : 'Invoice'}</h1>
        {missing ? null : (
          <LoadError className={`mt-4 ${LOAD_ERROR_CLASS}`} error={query.error} title="The invoice could not be loaded." retrying={query.isFetching} onRetry={() => void query.refetch()} />
        )}
      </div>
    );
  }
  return <InvoiceSheet invoice={query.data} />;
}

export function InvoiceSheet({ invoice }: { invoice: Invoice }) {
  const money = (minor: number) => formatMoney(minor, invoice.currency);
  return (
    <div className="mx-auto max-w-3xl px-4 py-8 print:p-0">
      <div className="invoice-actions mb-4 flex justify-end">
        <button type="button" className="rounded-lg bg-slate-900 px-4 py-2 text-sm font-semibold text-white" onClick={() => window.print()}>
          Print or save as PDF
        </button>
      </div>
      <article aria-label={`${invoice.title} ${invoice.number}`} className="print-document invoice-sheet rounded-xl border border-slate-200 bg-white p-8 text-slate-900 shadow-sm">
        <header className="flex flex-wrap items-start justify-between gap-6">
          <div>
            <h1 className="text-3xl font-bold">{invoice.title}</h1>
            <p className="mt-1 text-sm">
              Number <strong>{invoice.number}</strong>
            </p>
            <p className="text-sm">Date {longDate(invoice.issue_date)}</p>
            {invoice.adjusts ? <p className="text-sm">Adjusts tax invoice {invoice.adjusts}</p> : null}
            {invoice.order_number ? <p className="text-sm">Order {invoice.order_number}</p> : null}
          </div>
          <div className="text-right text-sm">
            <p className="font-semibold">{invoice.supplier.legal_name}</p>
            <p>{invoice.supplier.address}</p>
            <p>GST number {invoice.supplier.gst_number}</p>
          </div>
        </header>
        <section aria-label="Buyer" className="mt-6 text-sm">
          <h2 className="font-semibold">To</h2>
          {invoice.buyer.name ? <p>{invoice.buyer.name}</p> : null}
          {invoice.buyer.email ? <p>{invoice.buyer.email}</p> : null}
          {invoice.buyer.address ? <address className="not-italic">{addressLines(invoice.buyer.address).join(', ')}</address> : null}
        </section>
        <table className="mt-6 w-full text-left text-sm">
          <caption className="sr-only">Lines</caption>
          <thead className="border-b border-slate-300">
            <tr>
              <th scope="col" className="py-2">Description</th>
              <th scope="col" className="py-2 text-right">Quantity</th>
              <th scope="col" className="py-2 text-right">Amount (incl. GST)</th>
            </tr>
          </thead>
          <tbody>
            {invoice.lines.map((line, index) => (
              <tr key={`${line.description}-${String(index)}`} className="border-b border-slate-100">
                <td className="py-2">{line.description}</td>
                <td className="py-2 text-right">{line.quantity}</td>
                <td className="py-2 text-right">{money(line.amount)}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <dl className="mt-6 ml-auto w-full max-w-xs space-y-1 text-sm">
          <div className="flex justify-between font-semibold">
            <dt>Total ({invoice.currency}, GST inclusive)</dt>
            <dd>{money(invoice.total_amount)}</dd>
          </div>
          <div className="flex justify-between">
            <dt>{invoice.zero_rated ? 'GST (zero-rated)' : 'GST content'}</dt>
            <dd>{money(invoice.gst_amount)}</dd>
          </div>
        </dl>
        <p className="mt-4 text-xs text-slate-600">{invoice.gst_note}</p>
        {invoice.reason ? <p className="mt-2 text-xs text-slate-600">Reason: {invoice.reason}</p> : null}
      </article>
    </div>
  );
}
