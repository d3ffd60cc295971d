// / (spec section 2, "Landing page").
import { useEffect } from 'react';
import { LazyLoadError } from '@/components/list/LazyLoadError';
import { LOAD_ERROR_CLASS } from '@/components/list/loadErrorLook';
import { ExternalLinkIcon } from '@/components/icons';
import { SITE_NAME, useDocumentHead, type HeadTags } from '@/lib/head';
import { useProducts } from '../api/products';
import { ProductCard } from '../components/ProductCard';

export const BETA_TESTING_URL = 'https://play.google.com/apps/testing/nz.co.signalcraft.hhtraff';

export const LANDING_HEAD: HeadTags = {
  title: `${SITE_NAME} | Handheld serial terminal app and connectivity hardware`,
  description:
    'HHTraff turns an Android phone into an industrial serial terminal for traffic control systems: Bluetooth, USB, RS-232, RS-422 and RS-485. iOS coming soon.',
  robots: 'index, follow',
  canonical: '/',
  type: 'website',
  image: '/products/hhtraff/hhtraff-screen.svg',
};

const INTERFACES = ['Bluetooth', 'USB', 'RS-232', 'RS-422', 'RS-485'];

interface LandingPageProps {
  /** Opens the Contact Sales dialog (owned by the app shell). */
  onContactSales: () => void;
}

export function LandingPage({ onContactSales }: LandingPageProps) {
  const products = useProducts();
  useDocumentHead(LANDING_HEAD);

  useEffect(() => {
    if (products.error) console.error('Failed to load products', products.error);
  }, [products.error]);

  return (
    <>
      <section className="relative overflow-hidden bg-ink text-white" aria-labelledby="hero-heading">
        <div className="absolute inset-0 bg-[radial-gradient(circle_at_top_right,rgba(29,140,240,0.35),transparent_55%)]" aria-hidden="true" />
        <div className="relative mx-auto grid max-w-6xl items-center gap-10 px-4 py-16 sm:px-6 lg:grid-cols-2 lg:py-24">
          <div>
            <p className="text-sm font-semibold uppercase tracking-widest text-brand-200">Signalcraft Limited · New Zealand</p>
            <h1 id="hero-heading" className="mt-3 text-4xl font-bold tracking-tight sm:text-5xl">
              Your serial terminal, in your pocket
            </h1>
            <p className="mt-6 text-lg leading-relaxed text-slate-300">
              Signalcraft builds HHTraff, an industrial handheld terminal app for the technicians and engineers who
              commission, test and maintain traffic control systems and other serial equipment. Plug in over USB or pair
              a Bluetooth adapter, talk RS-232, RS-422 or RS-485, and leave the laptop in the van.
            </p>
            <p className="mt-4 text-slate-300">
              Available now on Android. <span className="font-semibold text-white">iOS coming soon.</span>
            </p>
            <ul className="mt-8 flex flex-wrap gap-2" aria-label="Supported connections">
              {INTERFACES.map((name) => (
                <li key={name} className="rounded-full border border-white/20 bg-white/10 px-3 py-1 text-sm font-medium">
                  {name}
                </li>
              ))}
            </ul>
            <div className="mt-8 flex flex-wrap gap-3">
              <a href="#products" className="btn-primary px-5 py-3 text-base">
                Browse products
              </a>
              <a href={BETA_TESTING_URL} target="_blank" rel="noopener noreferrer" className="btn px-5 py-3 text-base text-white ring-1 ring-white/30 hover:bg-white/10">
                Join the beta
                <ExternalLinkIcon />
                <span className="sr-only"> (opens in a new tab)</span>
              </a>
            </div>
          </div>
          <img
            src="/products/hhtraff/hhtraff-screen.svg"
            alt="HHTraff running on a rugged Android handheld, showing a serial terminal session"
            width={640}
            height={480}
            className="mx-auto w-full max-w-md rounded-2xl shadow-2xl ring-1 ring-white/10"
          />
        </div>
      </section>

      <section id="products" className="mx-auto max-w-6xl scroll-mt-20 px-4 py-16 sm:px-6" aria-labelledby="products-heading">
        <div className="max-w-2xl">
          <h2 id="products-heading" className="text-3xl font-bold tracking-tight text-slate-900">
            Our Products
          </h2>
          <p className="mt-3 text-slate-600">
            Field software on subscription, and the cables and adapters that connect it to the cabinet. Prices are in New
            Zealand dollars and include GST.
          </p>
        </div>
        {products.isPending ? (
          <p className="mt-10 text-slate-500" role="status">
            Loading products...
          </p>
        ) : products.isError && !products.data ? (
          <LazyLoadError className={`mt-10 ${LOAD_ERROR_CLASS}`} error={products.error} title="The products could not be loaded." retrying={products.isFetching} onRetry={() => void products.refetch()} />
        ) : (
          <div className="mt-10 grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
            {products.data.map((product) => (
              <ProductCard key={product.id} product={product} />
            ))}
          </div>
        )}
      </section>

      <section className="bg-brand-50" aria-labelledby="beta-heading">
        <div className="mx-auto flex max-w-6xl flex-col items-start gap-6 px-4 py-14 sm:px-6 md:flex-row md:items-center md:justify-between">
          <div className="max-w-2xl">
            <h2 id="beta-heading" className="text-2xl font-bold text-slate-900">
              Join our beta testing group
            </h2>
            <p className="mt-2 text-slate-700">
              Get new HHTraff releases before anyone else and help shape the features you use in the field. Join the
              testing group on Google Play with your Android device; you can leave at any time.
            </p>
          </div>
          <a href={BETA_TESTING_URL} target="_blank" rel="noopener noreferrer" className="btn-primary shrink-0 px-5 py-3 text-base">
            Become a beta tester
            <ExternalLinkIcon />
            <span className="sr-only"> (opens in a new tab)</span>
          </a>
        </div>
      </section>

      <section className="mx-auto max-w-6xl px-4 py-16 sm:px-6" aria-labelledby="enterprise-heading">
        <div className="overflow-hidden rounded-3xl bg-ink text-white shadow-xl">
          <div className="grid gap-10 p-8 sm:p-12 lg:grid-cols-5">
            <div className="lg:col-span-3">
              <h2 id="enterprise-heading" className="text-3xl font-bold">
                Enterprise Solutions
              </h2>
              <p className="mt-4 text-slate-300">
                Equipping a maintenance crew or a whole contractor fleet? Manage every technician&apos;s licence from one
                account, buy cables and adapters in volume, and get a direct line to the people who build the app.
              </p>
              <ul className="mt-6 space-y-3 text-slate-200">
                {[
                  'Team licences managed from a single enterprise account',
                  'Volume pricing on cables and Bluetooth adapters',
                  'Priority support and help with custom serial protocols',
                  'Invoicing in NZD with GST',
                ].map((item) => (
                  <li key={item} className="flex gap-3">
                    <svg viewBox="0 0 20 20" className="mt-0.5 h-5 w-5 shrink-0 text-brand-200" fill="currentColor" aria-hidden="true">
                      <path d="M16.7 5.3a1 1 0 0 1 0 1.4l-7.5 7.5a1 1 0 0 1-1.4 0L3.3 9.7a1 1 0 1 1 1.4-1.4l3.8 3.8 6.8-6.8a1 1 0 0 1 1.4 0Z" />
                    </svg>
                    <span>{item}</span>
                  </li>
                ))}
              </ul>
              <button type="button" className="btn-primary mt-8 px-5 py-3 text-base" onClick={onContactSales}>
                Contact Sales
              </button>
            </div>
            <div className="flex flex-col justify-center rounded-2xl bg-white/5 p-6 ring-1 ring-white/10 lg:col-span-2">
              <p className="text-lg font-semibold">Ready to equip your team?</p>
              <p className="mt-2 text-sm text-slate-300">
                Tell us how many technicians you have and what they connect to. We reply within 24 hours.
              </p>
              <button type="button" className="btn mt-6 bg-white px-5 py-3 text-base text-ink hover:bg-brand-50" onClick={onContactSales}>
                Get Started
              </button>
            </div>
          </div>
        </div>
      </section>
    </>
  );
}
