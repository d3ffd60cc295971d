import { useId } from 'react';
import { Link } from 'react-router';
import { HideOnErrorImage } from '@/components/HideOnErrorImage';
import { RichText } from '@/components/RichText';
import { CheckIcon } from '@/components/icons';
import type { Product } from '@/lib/types';
import { cardStockBadge, isSoldOut } from '../rules';

const BADGE_CLASSES = {
  low: 'border-yellow-300 bg-yellow-50 text-yellow-800',
  available: 'border-green-300 bg-green-50 text-green-800',
} as const;

/** A landing page card: name, description, feature checklist, stock and a View Details link. */
export function ProductCard({ product }: { product: Product }) {
  const headingId = useId();
  const soldOut = isSoldOut(product);
  const badge = cardStockBadge(product);
  return (
    <article
      aria-labelledby={headingId}
      className="relative flex flex-col overflow-hidden rounded-2xl border border-slate-200 bg-white shadow-sm transition-shadow hover:shadow-md"
    >
      {soldOut ? (
        <div className="bg-red-600 px-4 py-2 text-center text-white">
          <p className="text-sm font-bold tracking-widest">SOLD OUT</p>
          <p className="text-xs">This item is currently out of stock</p>
        </div>
      ) : null}
      <div className="flex flex-1 flex-col p-6">
        <div className="flex items-start gap-4">
          <HideOnErrorImage
            src={product.icon_url}
            alt=""
            width={56}
            height={56}
            className="h-14 w-14 shrink-0 rounded-xl"
            loading="lazy"
          />
          <div className="min-w-0">
            <h3 id={headingId} className="text-lg font-semibold text-slate-900">
              {product.name}
            </h3>
            <p className="text-xs font-medium uppercase tracking-wide text-slate-500">
              {product.type === 'subscription' ? 'Subscription' : 'Physical Product'}
            </p>
          </div>
        </div>
        <RichText html={product.description} className="mt-4 text-sm" />
        {product.features.length > 0 ? (
          <ul className="mt-4 space-y-2 text-sm" aria-label={`${product.name} features`}>
            {product.features.map((feature) => (
              <li key={feature} className="flex gap-2">
                <CheckIcon className="mt-0.5 h-4 w-4 shrink-0 text-green-600" />
                <span>{feature}</span>
              </li>
            ))}
          </ul>
        ) : null}
        <div className="mt-auto flex flex-wrap items-center justify-between gap-3 pt-6">
          {badge ? (
            <span className={`rounded-full border px-3 py-1 text-xs font-semibold ${BADGE_CLASSES[badge.level]}`}>
              {badge.text}
            </span>
          ) : (
            <span />
          )}
          <Link to={`/product/${encodeURIComponent(product.slug)}`} className="btn-primary">
            View Details<span className="sr-only"> of {product.name}</span>
          </Link>
        </div>
      </div>
    </article>
  );
}
