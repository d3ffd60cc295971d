// Where the ids and numbers on staff pages lead: an order, a customer, an audit log target, and a
// parcel's tracking page at its carrier. Pure functions; the pages render them as links.

export function orderPath(id: string): string {
  return `/admin/orders/${encodeURIComponent(id)}`;
}

export function customerPath(userId: string): string {
  return `/admin/customers/${encodeURIComponent(userId)}`;
}

/** The carriers whose tracking pages take the number at the end of the address (lower case). */
const CARRIERS: Record<string, string> = {
  'nz post': 'https://www.nzpost.co.nz/tools/tracking?trackid=',
  nzpost: 'https://www.nzpost.co.nz/tools/tracking?trackid=',
  courierpost: 'https://trackandtrace.courierpost.co.nz/search/',
  'courier post': 'https://trackandtrace.courierpost.co.nz/search/',
  aramex: 'https://www.aramex.co.nz/tools/track?l=',
  dhl: 'https://www.dhl.com/nz-en/home/tracking/tracking-express.html?submit=1&tracking-id=',
  'australia post': 'https://auspost.com.au/mypost/track/details/',
  auspost: 'https://auspost.com.au/mypost/track/details/',
};

/** The carrier's tracking page for a number (carrier matched case-insensitively); null when unknown. */
export function trackingUrl(carrier: string | null | undefined, number: string | null | undefined): string | null {
  const trimmed = number?.trim();
  if (!carrier || !trimmed) return null;
  const base = CARRIERS[carrier.trim().toLowerCase().replace(/\s+/g, ' ')];
  return base ? `${base}${encodeURIComponent(trimmed)}` : null;
}

/** An audit log target's page: orders and people by id, the rest by their list; null when none. */
export function auditTargetPath(type: string, id: string | null): string | null {
  switch (type) {
    case 'order':
      return id ? orderPath(id) : '/admin/orders';
    case 'user':
      return id ? customerPath(id) : '/admin/customers';
    case 'product':
      return '/admin/products';
    case 'enterprise_account':
      return '/admin/enterprise';
    case 'mail':
      return '/admin/mail';
    case 'enquiry':
      return '/admin/enquiries';
    case 'subscription':
      return '/admin/subscriptions';
    default:
      return null;
  }
}
