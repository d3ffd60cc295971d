// /admin/orders/:id/packing-slip: a printable packing slip for one order (docs/billing.md,
// "Shipping and fulfilment"): order number, date, ship-to address, items and quantities, no prices. On
// paper only the slip prints: its buttons are print:hidden and index.css leaves out the site's
// header and footer on a page holding a .print-document (no inline style: the CSP forbids it).
import { Link, useParams } from 'react-router';
import { isApiError } from '@/lib/api';
import { COMPANY_LEGAL_NAME } from '@/lib/company';
import { formatDate } from '@/lib/format';
import { SITE_NAME, useDocumentHead } from '@/lib/head';
import { addressLines } from '@/lib/shipping';
import { useOrder } from '../api/getOrder';
import { useLogLoadFailure } from '@/components/StaffPage';


export function PackingSlipPage() {
  const { id = '' } = useParams();
  const order = useOrder(id);
  useLogLoadFailure('the order', order.error);
  const data = order.data;
  useDocumentHead({ title: `Packing slip${data ? ` ${data.order_number}` : ''} | ${SITE_NAME}`, robots: 'noindex' });
  const back = `/admin/orders/${encodeURIComponent(id)}`;

  if (!data) {
    const missing = isApiError(order.error) && order.error.status === 404;
    return (
      <div className="mx-auto max-w-3xl px-4 py-10">
        <Link to="/admin/orders" className="text-sm font-medium text-brand-700 hover:underline">
          ← Back to Order Management
        </Link>
        <p role="status" className="mt-6 text-slate-600">
          {order.isPending ? 'Loading ...' : missing ? 'Order not found.' : 'The order could not be loaded.'}
        </p>
      </div>
    );
  }

  return (
    <div className="mx-auto max-w-3xl px-4 py-10 print:max-w-none print:p-0">
      <div className="mb-6 flex items-center justify-between gap-3 print:hidden">
        <Link to={back} className="text-sm font-medium text-brand-700 hover:underline">
          ← Back to Order {data.order_number}
        </Link>
        <button type="button" className="btn-primary" onClick={() => window.print()}>
          Print
        </button>
      </div>
      <article aria-labelledby="packing-slip-title" className="print-document rounded-xl border border-slate-200 bg-white p-8 text-slate-900 shadow-sm print:rounded-none print:border-0 print:p-0 print:shadow-none">
        <header className="flex flex-wrap items-start justify-between gap-4 border-b border-slate-300 pb-4">
          <div>
            <h1 id="packing-slip-title" className="text-2xl font-bold">
              Packing slip
            </h1>
            <p className="text-sm text-slate-600">{COMPANY_LEGAL_NAME}</p>
          </div>
          <dl className="text-right text-sm">
            <dt className="text-slate-500">Order</dt>
            <dd className="font-semibold">{data.order_number}</dd>
            <dt className="mt-1 text-slate-500">Date</dt>
            <dd>{formatDate(data.created_at)}</dd>
          </dl>
        </header>
        <section aria-labelledby="packing-slip-ship-to" className="mt-6">
          <h2 id="packing-slip-ship-to" className="text-sm font-semibold uppercase tracking-wide text-slate-500">
            Ship to
          </h2>
          {data.shipping_address ? (
            <address className="mt-2 not-italic leading-relaxed">
              {addressLines(data.shipping_address).map((line, index) => (
                <span key={`${line}-${String(index)}`} className="block">
                  {line}
                </span>
              ))}
              {data.shipping_address.phone ? <span className="block">Phone: {data.shipping_address.phone}</span> : null}
            </address>
          ) : (
            <p className="mt-2 text-slate-600">No shipping address on this order.</p>
          )}
        </section>
        <section aria-labelledby="packing-slip-items" className="mt-6">
          <h2 id="packing-slip-items" className="text-sm font-semibold uppercase tracking-wide text-slate-500">
            Items
          </h2>
          <table className="mt-2 min-w-full text-sm">
            <caption className="sr-only">Items in this parcel</caption>
            <thead>
              <tr className="border-b border-slate-300 text-left">
                <th scope="col" className="py-2">
                  Product
                </th>
                <th scope="col" className="py-2 text-right">
                  Quantity
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-200">
              {/* What is still to send: a refunded unit is back on the shelf (or never leaves it), so it is not packed. */}
              {data.items
                .filter((item) => item.quantity - item.refunded_quantity > 0)
                .map((item, index) => (
                  <tr key={`${item.product_id ?? 'item'}-${String(index)}`}>
                    <td className="py-2">{item.product_name}</td>
                    <td className="py-2 text-right">{item.quantity - item.refunded_quantity}</td>
                  </tr>
                ))}
            </tbody>
          </table>
        </section>
        {data.carrier || data.tracking_number ? (
          <p className="mt-6 text-sm">
            {data.carrier ? `Carrier: ${data.carrier}` : ''}
            {data.carrier && data.tracking_number ? ' · ' : ''}
            {data.tracking_number ? `Tracking number: ${data.tracking_number}` : ''}
          </p>
        ) : null}
      </article>
    </div>
  );
}
