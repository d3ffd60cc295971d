// The route table (spec section 2). Pages come from the features; access rules live in guards.
// Staff pages are lazy (each feature's index exports them through React.lazy); RootLayout's
// Suspense shows 'Loading ...' while their code arrives.
import type { ReactElement } from 'react';
import type { RouteObject } from 'react-router';
import { DashboardPage, TestSubscriptionPage } from '@/features/account';
import {
  AdminDashboardPage,
  AuditLogPage,
  OrderDetailPage,
  OrderManagementPage,
  ProductManagementPage,
  SubscriptionManagementPage,
} from '@/features/admin';
import { SecuritySettingsPage } from '@/features/auth';
import { CertificatesPage, PromoCodesPage, UsersPage, WireWriteDashboardPage } from '@/features/companion';
import { AdminEnterprisePage, EnterprisePage } from '@/features/enterprise';
import { CheckoutPage } from '@/features/checkout';
import { PrivacyPage, TermsPage } from '@/features/legal';
import { LandingPage, ProductPage } from '@/features/storefront';
import { useContactSales } from './contactSales';
import { RootLayout } from './layout/RootLayout';
import { RequireAdmin, RequireUser } from './routes/guards';
import { NotFoundPage } from './routes/NotFoundPage';
import { PendingPage } from './routes/PendingPage';
import { pages } from './pages.json';

function EnterpriseRoute() {
  const { openContactSales } = useContactSales();
  return <EnterprisePage onContactSales={openContactSales} />;
}

function LandingRoute() {
  const { openContactSales } = useContactSales();
  return <LandingPage onContactSales={openContactSales} />;
}

type PageEntry = (typeof pages)[number];

/** The element of each page kind named in pages.json. */
function elementOf(entry: PageEntry): ReactElement {
  switch (entry.page) {
    case 'terms':
      return <TermsPage />;
    case 'privacy':
      return <PrivacyPage />;
    case 'checkout':
      return <CheckoutPage />;
    case 'dashboard':
      return <DashboardPage />;
    case 'test-subscription':
      return <TestSubscriptionPage />;
    case 'security-settings':
      return <SecuritySettingsPage />;
    case 'admin-dashboard':
      return <AdminDashboardPage />;
    case 'admin-products':
      return <ProductManagementPage />;
    case 'admin-subscriptions':
      return <SubscriptionManagementPage />;
    case 'admin-orders':
      return <OrderManagementPage />;
    case 'admin-order':
      return <OrderDetailPage />;
    case 'admin-audit':
      return <AuditLogPage />;
    case 'enterprise':
      return <EnterpriseRoute />;
    case 'admin-enterprise':
      return <AdminEnterprisePage />;
    case 'wirewrite':
      return <WireWriteDashboardPage />;
    case 'wirewrite-promo-codes':
      return <PromoCodesPage />;
    case 'wirewrite-users':
      return <UsersPage />;
    case 'wirewrite-certificates':
      return <CertificatesPage />;
    default:
      return <PendingPage title={entry.title} />;
  }
}

/** The pages of one access level as routes under their guard (paths relative to `base`). */
function pagesFor(access: PageEntry['access'], base = '/'): RouteObject[] {
  return pages
    .filter((entry) => entry.access === access)
    .map((entry) => {
      const path = entry.path.slice(base.length);
      return path ? { path, element: elementOf(entry) } : { index: true, element: elementOf(entry) };
    });
}

/**
 * Starts loading the code of the page at `pathname` when it is a public page (the pages a visitor
 * arrives on); main.tsx renders once it is there. Other pages load on render, behind Suspense.
 */
export function preloadPage(pathname: string): Promise<void> {
  const path = pathname.length > 1 ? pathname.replace(/\/$/, '') : pathname;
  if (path === '/') return LandingPage.preload();
  if (/^\/product\/[^/]+$/.test(path)) return ProductPage.preload();
  if (path === '/terms') return TermsPage.preload();
  if (path === '/privacy') return PrivacyPage.preload();
  return Promise.resolve();
}

export const routes: RouteObject[] = [
  {
    element: <RootLayout />,
    children: [
      // '/' and '/product/:slug' are rendered by the server from the catalogue; the rest is pages.json.
      { index: true, element: <LandingRoute /> },
      { path: 'product/:slug', element: <ProductPage /> },
      ...pagesFor('public'),
      {
        element: <RequireUser openSignIn />,
        children: pagesFor('user').filter((route) => route.path === 'checkout/:slug'),
      },
      {
        element: <RequireUser />,
        children: pagesFor('user').filter((route) => route.path !== 'checkout/:slug'),
      },
      {
        path: 'admin',
        element: <RequireAdmin />,
        children: pagesFor('admin', '/admin/'),
      },
      { path: '*', element: <NotFoundPage /> },
    ],
  },
];
