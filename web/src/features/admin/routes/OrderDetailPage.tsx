// /admin/orders/:id: one order with its items (what was refunded and returned to stock per line),
// its status history (who changed what, when and from where, oldest first), its refunds and tax
// documents, any payment that arrived after it was cancelled, and the actions its status allows
// (components/OrderActions: no free status choice; the lifecycle table is the server's). The
// sections are in ../order-detail and ../components.
import { useCallback, useState } from 'react';
import { useParams } from 'react-router';
import { Banner, type BannerMessage } from '@/components/Banner';
import { Panel } from '@/components/detail';
import { StaffPage, useLogLoadFailure } from '@/components/StaffPage';
import { isApiError } from '@/lib/api';
import { useOrder } from '../api/getOrder';
import { OrderShipping } from '../components/OrderShipping';
import { OrderItemsTable, RefundsTable, StatusHistoryTable } from '../components/OrderTables';
import { LateNotice, LatePayments, OrderInvoices } from '../order-detail/OrderPayments';
import { OrderSummary } from '../order-detail/OrderSummary';

export { PAID_AFTER_CANCELLATION } from '../order-detail/OrderPayments';
export { DISPUTED } from '../order-detail/OrderSummary';

const BACK = { to: '/admin/orders', label: 'Back to Order Management' };

export function OrderDetailPage() {
  const { id = '' } = useParams();
  const order = useOrder(id);
  useLogLoadFailure('the order', order.error);
  const [message, setMessage] = useState<BannerMessage | null>(null);
  const dismiss = useCallback(() => setMessage(null), []);
  const data = order.data;

  if (!data) {
    const missing = isApiError(order.error) && order.error.status === 404;
    return (
      <StaffPage title="Order Details" back={BACK} error={order.error}>
        {order.isPending ? (
          <p role="status" className="py-12 text-center text-slate-500">
            Loading ...
          </p>
        ) : (
          <p className="text-slate-600">{missing ? 'Order not found.' : 'The order could not be loaded.'}</p>
        )}
      </StaffPage>
    );
  }

  return (
    <StaffPage title={`Order ${data.order_number}`} back={BACK}>
      <Banner message={message} onDismiss={dismiss} />
      <LateNotice order={data} />
      <OrderSummary order={data} onMessage={setMessage} />
      <OrderShipping order={data} onMessage={setMessage} />
      <Panel id="order-items" title="Items">
        <OrderItemsTable order={data} />
      </Panel>
      <Panel id="order-history" title="Status History">
        <StatusHistoryTable history={data.history} />
      </Panel>
      {data.refunds.length > 0 ? (
        <Panel id="order-refunds" title="Refunds">
          <RefundsTable refunds={data.refunds} />
        </Panel>
      ) : null}
      <OrderInvoices order={data} />
      <LatePayments order={data} />
    </StaffPage>
  );
}
