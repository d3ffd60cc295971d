// /account/invoices: the customer's tax invoices and credit notes, newest first, a page at a time.
import { useState } from 'react';
import { Link } from 'react-router';
import { LOAD_ERROR_CLASS, LoadError } from '@/components/list/LoadError';
import { Loading } from '@/components/Spinner';
import { formatDate, formatMoney } from '@/lib/format';
import { SITE_NAME, useDocumentHead } from '@/lib/head';
import { INVOICES_PAGE_SIZE, useInvoices } from '../api/invoices';
import { AccountNav } from '../components/AccountNav';

const HEAD = { title: `Invoices | ${SITE_NAME}`, robots: 'noindex' };

export function InvoicesPage() {
  useDocumentHead(HEAD);
  const [page, setPage] = useState(1);
  const query = useInvoices(page);
  const data = query.data;
  const pages = data ? Math.max(1, Math.ceil(data.total / INVOICES_PAGE_SIZE)) : 1;

  return (
    <div className="mx-auto max-w-4xl px-4 py-8 sm:px-6 lg:py-12">
      <h1 className="text-3xl font-bold tracking-tight text-slate-900">Invoices</h1>
      <AccountNav />
      <p className="mt-2 text-slate-600">
        Tax invoices and credit notes for your payments. Open one to print it or save it as a PDF.
      </p>
      {query.isPending ? (
        <Loading text="Loading invoices..." />
      ) : query.error || !data ? (
        <LoadError className={`mt-6 ${LOAD_ERROR_CLASS}`} error={query.error} title="The invoices could not be loaded." retrying={query.isFetching} onRetry={() => void query.refetch()} />
      ) : data.items.length === 0 ? (
        <p className="mt-6 text-slate-600">You have no invoices yet.</p>
      ) : (
        <>
          <table className="mt-6 w-full text-left text-sm">
            <caption className="sr-only">Invoices</caption>
            <thead className="border-b border-slate-200 text-slate-500">
              <tr>
                <th scope="col" className="py-2">Number</th>
                <th scope="col" className="py-2">Date</th>
                <th scope="col" className="py-2 text-right">Total</th>
                <th scope="col" className="py-2 text-right">GST</th>
              </tr>
            </thead>
            <tbody>
              {data.items.map((invoice) => (
                <tr key={invoice.number} className="border-b border-slate-100">
                  <td className="py-2">
                    <Link className="font-medium text-blue-700 underline" to={`/account/invoices/${encodeURIComponent(invoice.number)}`}>
                      {invoice.number}
                    </Link>
                    {invoice.kind === 'credit_note' ? <span className="ml-2 text-xs text-slate-500">Credit note</span> : null}
                  </td>
                  <td className="py-2">{formatDate(invoice.issued_at)}</td>
                  <td className="py-2 text-right">{formatMoney(invoice.total_amount, invoice.currency)}</td>
                  <td className="py-2 text-right">{formatMoney(invoice.gst_amount, invoice.currency)}</td>
                </tr>
              ))}
            </tbody>
          </table>
          {pages > 1 ? (
            <nav aria-label="Pages" className="mt-4 flex items-center gap-3 text-sm">
              <button type="button" className="rounded border px-3 py-1 disabled:opacity-50" disabled={page <= 1} onClick={() => setPage(page - 1)}>
                Previous
              </button>
              <span>
                Page {page} of {pages}
              </span>
              <button type="button" className="rounded border px-3 py-1 disabled:opacity-50" disabled={page >= pages} onClick={() => setPage(page + 1)}>
                Next
              </button>
            </nav>
          ) : null}
        </>
      )}
    </div>
  );
}
