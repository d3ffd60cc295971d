import { Link } from 'react-router';
import { ExternalLinkIcon } from '@/components/icons';
import type { Product } from '@/lib/types';
import { actionLabel, productAction, WIREWRITE_APP_URL, WIREWRITE_SLUG } from '../rules';

/** The buy/subscribe area of the detail page (rules in ../rules.ts, productAction). */
export function ActionArea({ product }: { product: Product }) {
  const action = productAction(product);
  const label = actionLabel(product);
  return (
    <div className="space-y-3">
      {action.kind === 'coming-soon' ? (
        <div className="rounded-xl border border-brand-200 bg-brand-50 p-4 text-center">
          <p className="text-lg font-semibold text-brand-800">Coming Soon</p>
          <p className="mt-1 text-sm text-brand-900">This product isn&apos;t available to order yet. Check back soon.</p>
        </div>
      ) : null}
      {action.kind === 'out-of-stock' ? (
        <div role="status" className="rounded-xl border border-red-300 bg-red-50 p-4 text-center">
          <p className="text-lg font-bold tracking-wider text-red-700">OUT OF STOCK</p>
          <p className="mt-1 text-sm text-red-800">This item is currently out of stock</p>
        </div>
      ) : null}
      {action.kind === 'external' ? (
        <a href={action.url} target="_blank" rel="noopener noreferrer" className="btn-primary w-full py-3 text-base">
          {label}
          <ExternalLinkIcon />
          <span className="sr-only"> (opens in a new tab)</span>
        </a>
      ) : null}
      {action.kind === 'checkout' ? (
        <Link to={action.to} className="btn-primary w-full py-3 text-base">
          {label}
        </Link>
      ) : null}
      {product.slug === WIREWRITE_SLUG ? (
        <a href={WIREWRITE_APP_URL} target="_blank" rel="noopener noreferrer" className="btn-secondary w-full py-3 text-base">
          Launch WireWrite App
          <ExternalLinkIcon />
          <span className="sr-only"> (opens in a new tab)</span>
        </a>
      ) : null}
    </div>
  );
}
