// /product/{slug} (spec section 2, "Product detail page").
import { lazy, Suspense, useEffect, useMemo, useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { HideOnErrorImage } from '@/components/HideOnErrorImage';
import { LazyLoadError } from '@/components/list/LazyLoadError';
import { ProductNotFound } from '@/components/ProductNotFound';
import { RichText } from '@/components/RichText';
import { Loading } from '@/components/Spinner';
import { ArrowLeftIcon, CheckIcon, ExpandIcon } from '@/components/icons';
import { metaDescription, SITE_NAME, useDocumentHead, type HeadTags } from '@/lib/head';
import type { Product } from '@/lib/types';
import { useProduct } from '../api/products';
import { ActionArea } from '../components/ActionArea';
import { Pricing } from '../components/Pricing';
import { StockStatusBox } from '../components/StockStatusBox';
import { stockStatus } from '../rules';

// The lightbox (and the dialog it is built on) loads when the picture is first enlarged.
const Lightbox = lazy(() => import('../components/Lightbox').then((m) => ({ default: m.Lightbox })));

/** The size the picture is laid out at before it loads (pictures are 8:5 or 4:3; contained). */
const PICTURE_WIDTH = 800;
const PICTURE_HEIGHT = 500;
/** How wide the picture is laid out: two of three columns of the 72rem page from lg, else the viewport. */
const PICTURE_SIZES = '(min-width: 1024px) 768px, 100vw';

export function productHead(product: Product): HeadTags {
  return {
    title: `${product.name} | ${SITE_NAME}`,
    description: metaDescription(product.description_detail?.trim() ? product.description_detail : product.description),
    keywords: product.meta_keywords,
    robots: 'index, follow',
    canonical: `/product/${encodeURIComponent(product.slug)}`,
    type: 'product',
    image: product.picture_url ?? product.icon_url,
    price: product.price_nzd > 0 ? { amount: (product.price_nzd / 100).toFixed(2), currency: 'NZD' } : null,
  };
}

const NOT_FOUND_HEAD: HeadTags = {
  title: `Product Not Found | ${SITE_NAME}`,
  description: 'The product you are looking for does not exist or is no longer available.',
  robots: 'noindex',
};

export function ProductPage() {
  const { slug = '' } = useParams();
  const query = useProduct(slug);
  const product = query.data ?? null;

  useEffect(() => {
    if (query.error) console.error(`Failed to load product "${slug}"`, query.error);
  }, [query.error, slug]);

  const head = useMemo(() => {
    if (query.isPending) return null;
    return product ? productHead(product) : NOT_FOUND_HEAD;
  }, [query.isPending, product]);
  useDocumentHead(head);

  if (query.isPending) {
    return <Loading text="Loading product details..." className="mx-auto flex max-w-6xl items-center justify-center px-4 py-24" />;
  }
  // A failure, not a missing product (that answers null): say so, with Retry.
  if (!product && query.isError)
    return (
      <div className="mx-auto max-w-xl px-4 py-24">
        <LazyLoadError error={query.error} title="This product could not be loaded." retrying={query.isFetching} onRetry={() => void query.refetch()} />
      </div>
    );
  if (!product)
    return (
      <div className="mx-auto max-w-xl px-4 py-24">
        <ProductNotFound />
      </div>
    );
  return <ProductDetail key={product.slug} product={product} />;
}

function ProductDetail({ product }: { product: Product }) {
  const navigate = useNavigate();
  const [lightboxOpen, setLightboxOpen] = useState(false);
  const [lightboxUsed, setLightboxUsed] = useState(false);
  const [pictureFailed, setPictureFailed] = useState(false);
  const stock = stockStatus(product);
  const pictureAlt = `${product.name} picture`;

  return (
    <div className="mx-auto max-w-6xl px-4 py-8 sm:px-6 lg:py-12">
      <button type="button" className="btn-ghost -ml-3" onClick={() => void navigate('/')}>
        <ArrowLeftIcon />
        Back to Products
      </button>

      <div className="mt-6 flex flex-wrap items-center gap-4">
        <HideOnErrorImage src={product.icon_url} alt={`${product.name} icon`} width={72} height={72} className="h-18 w-18 rounded-2xl" />
        <div>
          <h1 className="text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl">{product.name}</h1>
          <span
            className={`mt-2 inline-block rounded-full px-3 py-1 text-xs font-semibold ${
              product.type === 'subscription' ? 'bg-brand-100 text-brand-800' : 'bg-slate-200 text-slate-800'
            }`}
          >
            {product.type === 'subscription' ? 'Subscription' : 'Physical Product'}
          </span>
        </div>
      </div>

      <div className="mt-8 grid gap-8 lg:grid-cols-3">
        <div className="space-y-8 lg:col-span-2">
          {product.picture_url && !pictureFailed ? (
            <>
              <button
                type="button"
                onClick={() => {
                  setLightboxUsed(true);
                  setLightboxOpen(true);
                }}
                className="group relative block w-full overflow-hidden rounded-2xl border border-slate-200 bg-white"
                aria-label={`Enlarge ${pictureAlt}`}
              >
                <img
                  src={product.picture_url}
                  srcSet={product.picture_srcset ?? undefined}
                  sizes={product.picture_srcset ? PICTURE_SIZES : undefined}
                  alt={pictureAlt}
                  width={PICTURE_WIDTH}
                  height={PICTURE_HEIGHT}
                  onError={() => setPictureFailed(true)}
                  className="mx-auto aspect-[8/5] max-h-[28rem] w-full object-contain p-4"
                />
                {/* The visible text starts the button's name (WCAG 2.5.3, axe label-content-name-mismatch). */}
                <span className="absolute bottom-3 right-3 inline-flex items-center gap-1 rounded-full bg-slate-900/75 px-3 py-1 text-xs font-medium text-white opacity-90 group-hover:opacity-100">
                  <ExpandIcon className="h-3.5 w-3.5" />
                  Enlarge
                </span>
              </button>
              {lightboxUsed ? (
                <Suspense fallback={null}>
                  <Lightbox open={lightboxOpen} onClose={() => setLightboxOpen(false)} src={product.picture_url} alt={pictureAlt} />
                </Suspense>
              ) : null}
            </>
          ) : null}

          <section aria-labelledby="about-heading">
            <h2 id="about-heading" className="sr-only">
              About {product.name}
            </h2>
            <RichText html={product.description_detail?.trim() ? product.description_detail : product.description} />
          </section>

          {product.features.length > 0 ? (
            <section aria-labelledby="features-heading" className="rounded-2xl border border-slate-200 bg-white p-6">
              <h2 id="features-heading" className="text-lg font-semibold text-slate-900">
                Features
              </h2>
              <ul className="mt-4 grid gap-3 sm:grid-cols-2">
                {product.features.map((feature) => (
                  <li key={feature} className="flex gap-2 text-slate-700">
                    <CheckIcon className="mt-0.5 h-5 w-5 shrink-0 text-green-600" />
                    <span>{feature}</span>
                  </li>
                ))}
              </ul>
            </section>
          ) : null}
        </div>

        <aside className="space-y-4" aria-label="Purchase options">
          {stock ? <StockStatusBox status={stock} /> : null}
          <Pricing product={product} />
          <ActionArea product={product} />
        </aside>
      </div>
    </div>
  );
}
