// The order page's Shipping card: the address (the snapshot from checkout, or what staff entered),
// the carrier and tracking (the number a link to a known carrier's tracking page), "Update tracking" once shipped, and the packing slip link.
// Only an order with no physical line is called digital; goods with no address yet (the buyer left
// the payment page) say so, and while the order is pending or paid staff add the address, or
// correct it, in the ShippingAddressDialog (docs/billing.md, "Staff's address").
import { useState } from 'react';
import { Link } from 'react-router';
import type { BannerMessage } from '@/components/Banner';
import { formatDate } from '@/lib/format';
import { Panel } from '@/components/detail';
import { addressLines } from '@/lib/shipping';
import type { OrderDetail } from '../api/schemas';
import { trackingUrl } from '../links';
import { ShipOrderDialog } from './ShipOrderDialog';
import { ShippingAddressDialog } from './ShippingAddressDialog';

/** The statuses in which the server takes an address (later it is fixed: 409 address_locked). */
const ADDRESS_EDITABLE = new Set(['pending', 'paid']);

/** The number, a link to the carrier's tracking page when the carrier is one we know (no referrer: it names the order). */
export function TrackingNumber({ carrier, number }: { carrier?: string | null; number: string }) {
  const url = trackingUrl(carrier, number);
  if (!url) return <>{number}</>;
  return (
    <a href={url} rel="noopener noreferrer" className="font-mono text-brand-700 hover:underline">
      {number}
    </a>
  );
}

export function OrderShipping({ order, onMessage }: { order: OrderDetail; onMessage: (message: BannerMessage) => void }) {
  const [editingTracking, setEditingTracking] = useState(false);
  const [editingAddress, setEditingAddress] = useState(false);
  const tracking = [order.carrier, order.tracking_number].filter(Boolean).join(' ');
  const addressEditable = order.has_physical_items && ADDRESS_EDITABLE.has(order.status);
  return (
    <Panel
      id="order-shipping"
      title="Shipping"
      actions={
        <div className="flex gap-3">
          {addressEditable ? (
            <button type="button" className="btn-secondary" onClick={() => setEditingAddress(true)}>
              {order.shipping_address ? 'Change address' : 'Add address'}
            </button>
          ) : null}
          {order.status === 'shipped' ? (
            <button type="button" className="btn-secondary" onClick={() => setEditingTracking(true)}>
              Update tracking
            </button>
          ) : null}
          {order.shipping_address ? (
            <Link to={`/admin/orders/${encodeURIComponent(order.id)}/packing-slip`} className="btn-secondary">
              Packing slip
            </Link>
          ) : null}
        </div>
      }
    >
      {order.shipping_address ? (
        <dl className="mt-3 grid gap-4 text-sm sm:grid-cols-2">
          <div>
            <dt className="text-slate-500">Ship to</dt>
            <dd className="mt-1 text-slate-900">
              <address className="not-italic">
                {addressLines(order.shipping_address).map((line, index) => (
                  <span key={`${line}-${String(index)}`} className="block">
                    {line}
                  </span>
                ))}
              </address>
              {order.shipping_address.phone ? <span className="mt-1 block">Phone: {order.shipping_address.phone}</span> : null}
            </dd>
          </div>
          <div>
            <dt className="text-slate-500">Tracking</dt>
            <dd className="mt-1 text-slate-900">
              {order.carrier || order.tracking_number ? (
                <>
                  {order.carrier ? <span className="block">Carrier: {order.carrier}</span> : null}
                  {order.tracking_number ? (
                    <span className="block">
                      Tracking number: <TrackingNumber carrier={order.carrier} number={order.tracking_number} />
                    </span>
                  ) : null}
                </>
              ) : (
                <span className="text-slate-500">No tracking yet.</span>
              )}
              {order.shipped_at ? <span className="block text-xs text-slate-500">Shipped {formatDate(order.shipped_at, { withTime: true })}</span> : null}
            </dd>
          </div>
        </dl>
      ) : (
        <p className="mt-2 text-sm text-slate-500">
          {order.has_physical_items ? 'No shipping address yet.' : 'Digital order: nothing to ship.'}
          {tracking ? ` Tracking: ${tracking}` : ''}
        </p>
      )}
      {editingAddress ? (
        <ShippingAddressDialog
          order={order}
          onClose={() => setEditingAddress(false)}
          onSaved={() => {
            setEditingAddress(false);
            onMessage({ tone: 'success', text: `Shipping address of order ${order.order_number} saved.` });
          }}
          onRefused={(text) => {
            setEditingAddress(false);
            onMessage({ tone: 'error', text });
          }}
        />
      ) : null}
      {editingTracking ? (
        <ShipOrderDialog
          open
          order={order}
          onClose={() => setEditingTracking(false)}
          onShipped={() => {
            setEditingTracking(false);
            onMessage({ tone: 'success', text: `Tracking of order ${order.order_number} updated.` });
          }}
          onRefused={(text) => {
            setEditingTracking(false);
            onMessage({ tone: 'error', text });
          }}
        />
      ) : null}
    </Panel>
  );
}
