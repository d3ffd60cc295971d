// /checkout/{slug} (spec section 2 route table; docs/billing.md "Flow"). The buyer picks a plan
// (subscription) or a quantity (physical product) and goes to the provider's hosted checkout. The
// page sends only the product, the plan id and the quantity: price, currency and stock are the
// server's. Coming back with `?cancelled=<checkout id>` abandons that checkout once.
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState, type SyntheticEvent } from 'react';
import { Link, useParams } from 'react-router';
import { HideOnErrorImage } from '@/components/HideOnErrorImage';
import { ProductNotFound } from '@/components/ProductNotFound';
import { Loading } from '@/components/Spinner';
import { ArrowLeftIcon } from '@/components/icons';
import { errorMessage, isApiError } from '@/lib/api';
import { isSoldOut, productKeys, sortedPlans } from '@/lib/catalog';
import { SITE_NAME, useDocumentHead } from '@/lib/head';
import { browserNavigation } from '@/lib/navigation';
import type { Product } from '@/lib/types';
import { useCreateCheckoutSession, type CheckoutRequest } from '../api/createCheckoutSession';
import { useCheckoutProduct } from '../api/product';
import { CancelledCheckoutNotice } from '../components/CancelledCheckoutNotice';
import { PlanChoice, QuantityChoice } from '../components/CheckoutChoices';
import { maxQuantity } from '../rules';

const HEAD = { title: `Checkout | ${SITE_NAME}`, robots: 'noindex' };

const OUT_OF_STOCK_TEXT = 'This item is currently out of stock';
const NO_PAYMENT_PAGE_TEXT = 'The payment page could not be opened. Please try again.';
const CHOOSE_PLAN_TEXT = 'Choose a pricing plan.';

export function CheckoutPage() {
  const { slug = '' } = useParams();
  const query = useCheckoutProduct(slug);
  useDocumentHead(HEAD);

  useEffect(() => {
    if (query.error) console.error(`Failed to load product "${slug}" for checkout`, query.error);
  }, [query.error, slug]);

  const product = query.data ?? null;
  return (
    <div className="mx-auto max-w-3xl px-4 py-8 sm:px-6 lg:py-12">
      <CancelledCheckoutNotice slug={slug} />
      {query.isPending ? (
        <Loading text="Loading product details..." />
      ) : product ? (
        <CheckoutForm key={product.slug} product={product} />
      ) : (
        <ProductNotFound />
      )}
    </div>
  );
}

/** The server's refusal as text; a 422 adds its field messages. */
function checkoutErrorText(error: unknown): string {
  if (!isApiError(error)) return errorMessage(error);
  const details = [...new Set(Object.values(error.fields))].filter((text) => text !== error.message);
  return [error.message, ...details].join(' ');
}

function CheckoutForm({ product }: { product: Product }) {
  const queryClient = useQueryClient();
  const plans = sortedPlans(product);
  const isSubscription = product.type === 'subscription';
  const soldOut = isSoldOut(product);
  const notForSale = product.action_type === 'none';
  const [planId, setPlanId] = useState<string | null>(plans[0]?.id ?? null);
  const [quantity, setQuantity] = useState(1);
  const [redirecting, setRedirecting] = useState(false);
  const [localError, setLocalError] = useState<string | null>(null);
  const mutation = useCreateCheckoutSession();

  // The stock can fall while the page is open (a refetch after a 409): never ask for more, and say
  // so beside the control rather than changing the quantity unannounced.
  const availableQuantity = maxQuantity(product);
  const effectiveQuantity = Math.max(1, Math.min(quantity, availableQuantity));
  const quantityLowered = quantity > effectiveQuantity;
  const selectedPlan = plans.find((plan) => plan.id === planId) ?? null;
  const busy = mutation.isPending || redirecting;
  const canBuy = !notForSale && (isSubscription ? plans.length > 0 : !soldOut);

  const onSubmit = async (event: SyntheticEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    setLocalError(null);
    let request: CheckoutRequest;
    if (isSubscription) {
      // The chosen plan can disappear when the product is reloaded: ask again, send nothing.
      if (!selectedPlan) {
        setLocalError(CHOOSE_PLAN_TEXT);
        return;
      }
      request = { productSlug: product.slug, priceId: selectedPlan.id };
    } else {
      request = { productSlug: product.slug, quantity: effectiveQuantity };
    }
    let url: string;
    try {
      ({ url } = await mutation.mutateAsync(request));
    } catch (error) {
      if (isApiError(error) && error.code === 'insufficient_stock') {
        void queryClient.invalidateQueries({ queryKey: productKeys.detail(product.slug) });
      }
      return;
    }
    if (!url) {
      setLocalError(NO_PAYMENT_PAGE_TEXT);
      return;
    }
    setRedirecting(true);
    try {
      browserNavigation.assign(url);
    } catch (error) {
      console.error('Redirect to the payment page failed', error);
      setRedirecting(false);
      setLocalError(NO_PAYMENT_PAGE_TEXT);
    }
  };

  const serverError = mutation.error;
  const alreadySubscribed = isApiError(serverError) && serverError.code === 'already_subscribed';

  return (
    <>
      <Link to={`/product/${encodeURIComponent(product.slug)}`} className="btn-ghost -ml-3">
        <ArrowLeftIcon />
        Back to {product.name}
      </Link>
      <h1 className="mt-4 text-3xl font-bold tracking-tight text-slate-900">Checkout</h1>

      <div className="mt-6 rounded-2xl border border-slate-200 bg-white p-6 shadow-sm">
        <div className="flex items-center gap-4">
          <HideOnErrorImage src={product.icon_url} alt="" width={56} height={56} className="h-14 w-14 shrink-0 rounded-xl" />
          <div>
            <h2 className="text-xl font-semibold text-slate-900">{product.name}</h2>
            <span
              className={`mt-1 inline-block rounded-full px-3 py-1 text-xs font-semibold ${
                isSubscription ? 'bg-brand-100 text-brand-800' : 'bg-slate-200 text-slate-800'
              }`}
            >
              {isSubscription ? 'Subscription' : 'Physical Product'}
            </span>
          </div>
        </div>

        {notForSale ? (
          <div className="mt-6 rounded-xl border border-brand-200 bg-brand-50 p-4 text-center">
            <p className="text-lg font-semibold text-brand-800">Coming Soon</p>
            <p className="mt-1 text-sm text-brand-900">This product isn&apos;t available to order yet. Check back soon.</p>
          </div>
        ) : isSubscription && plans.length === 0 ? (
          <p className="mt-6 rounded-xl border border-slate-200 bg-slate-50 p-4 text-slate-700">
            No pricing plans are available for this product yet.
          </p>
        ) : !isSubscription && soldOut ? (
          <div role="status" className="mt-6 rounded-xl border border-red-300 bg-red-50 p-4 text-center">
            <p className="text-lg font-bold tracking-wider text-red-700">SOLD OUT</p>
            <p className="mt-1 text-sm text-red-800">{OUT_OF_STOCK_TEXT}</p>
          </div>
        ) : null}

        {canBuy ? (
          <form className="mt-6 space-y-6" onSubmit={(event) => void onSubmit(event)} noValidate>
            {isSubscription ? (
              <PlanChoice
                plans={plans}
                planId={planId}
                disabled={busy}
                onChoose={(id) => {
                  setPlanId(id);
                  setLocalError(null);
                }}
              />
            ) : (
              <QuantityChoice
                product={product}
                quantity={effectiveQuantity}
                available={availableQuantity}
                lowered={quantityLowered}
                disabled={busy}
                onChange={setQuantity}
              />
            )}

            <p className="text-xs text-slate-500">All prices include GST. Payment is taken on the secure payment page.</p>

            {serverError || localError ? (
              <div role="alert" className="rounded-xl border border-red-300 bg-red-50 p-4 text-sm text-red-800">
                <p>{localError ?? checkoutErrorText(serverError)}</p>
                {alreadySubscribed && !localError ? (
                  <p className="mt-1">
                    It is listed on your <Link to="/dashboard" className="font-medium underline">Dashboard</Link>.
                  </p>
                ) : null}
              </div>
            ) : null}

            <button type="submit" className="btn-primary w-full py-3 text-base" disabled={busy}>
              Continue to Payment
            </button>
            <p role="status" className="text-center text-sm text-slate-600">
              {redirecting ? 'Redirecting to the payment page...' : mutation.isPending ? 'Creating checkout...' : ''}
            </p>
          </form>
        ) : null}
      </div>
    </>
  );
}
