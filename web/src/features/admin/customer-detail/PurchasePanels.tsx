// What the customer bought: their orders (each to its page, all of them in the orders list),
// subscriptions (all of them in the subscriptions list) and tax documents (each to its printable
// document).
import { Link } from 'react-router';
import { Badge } from '@/components/list/Badge';
import { Panel, PanelEmpty } from '@/components/detail';
import { formatDate, formatMoney } from '@/lib/format';
import type { CustomerDetail } from '../api/customerSchemas';
import { invoiceHref } from '../invoices';
import { orderPath } from '../links';
import { orderTone, statusLabel, subscriptionTone } from '../status';
import { PLAIN_CELL as CELL, PlainTable } from '@/components/detail/PlainTable';

const LINK = 'font-medium text-brand-700 hover:underline';

/** "All their orders" in the list, searched by their email (the list's own search). */
function ListLink({ to, email, label }: { to: string; email: string | null; label: string }) {
  if (!email) return null;
  return (
    <Link to={`${to}?q=${encodeURIComponent(email)}`} className={`text-sm ${LINK}`}>
      {label}
    </Link>
  );
}

export function OrdersPanel({ data }: { data: CustomerDetail }) {
  return (
    <Panel id="customer-orders" title="Orders" actions={<ListLink to="/admin/orders" email={data.customer.email} label="All their orders" />}>
      {data.orders.length === 0 ? (
        <PanelEmpty>No orders.</PanelEmpty>
      ) : (
        <PlainTable caption="Orders" headers={['Order', 'Date', 'Status', 'Total']}>
          {data.orders.map((o) => (
            <tr key={o.id}>
              <td className={CELL}>
                <Link to={orderPath(o.id)} className={LINK}>
                  {o.order_number}
                </Link>
              </td>
              <td className={CELL}>{formatDate(o.created_at)}</td>
              <td className={CELL}>
                <Badge tone={orderTone(o.status)}>{statusLabel(o.status)}</Badge>
              </td>
              <td className={CELL}>{formatMoney(o.total_amount, o.currency)}</td>
            </tr>
          ))}
        </PlainTable>
      )}
    </Panel>
  );
}

export function SubscriptionsPanel({ data }: { data: CustomerDetail }) {
  return (
    <Panel
      id="customer-subscriptions"
      title="Subscriptions"
      actions={<ListLink to="/admin/subscriptions" email={data.customer.email} label="All their subscriptions" />}
    >
      {data.subscriptions.length === 0 ? (
        <PanelEmpty>No subscriptions.</PanelEmpty>
      ) : (
        <PlainTable caption="Subscriptions" headers={['Product', 'Status', 'Period end', 'Started']}>
          {data.subscriptions.map((s) => (
            <tr key={s.id}>
              <td className={CELL}>
                {s.product_name}
                {s.plan_name ? <span className="block text-xs text-slate-500">{s.plan_name}</span> : null}
              </td>
              <td className={CELL}>
                <Badge tone={subscriptionTone(s.status)}>{statusLabel(s.status)}</Badge>
                {s.cancel_at_period_end ? <span className="block text-xs text-slate-500">Cancels at period end</span> : null}
              </td>
              <td className={CELL}>{s.current_period_end ? formatDate(s.current_period_end) : '—'}</td>
              <td className={CELL}>{formatDate(s.created_at)}</td>
            </tr>
          ))}
        </PlainTable>
      )}
    </Panel>
  );
}

export function InvoicesPanel({ data }: { data: CustomerDetail }) {
  return (
    <Panel id="customer-invoices" title="Tax invoices">
      {data.invoices.length === 0 ? (
        <PanelEmpty>No tax invoices.</PanelEmpty>
      ) : (
        <PlainTable caption="Tax invoices" headers={['Number', 'Kind', 'Issued', 'Total']}>
          {data.invoices.map((i) => (
            <tr key={i.id}>
              <td className={`${CELL} font-mono`}>
                <Link to={invoiceHref(i.number)} className={LINK}>
                  {i.number}
                </Link>
              </td>
              <td className={CELL}>{i.kind === 'credit_note' ? 'Credit note' : 'Invoice'}</td>
              <td className={CELL}>{formatDate(i.issued_at)}</td>
              <td className={CELL}>{formatMoney(i.total_amount, i.currency)}</td>
            </tr>
          ))}
        </PlainTable>
      )}
    </Panel>
  );
}
