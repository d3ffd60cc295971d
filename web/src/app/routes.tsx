// The route table (spec section 2). Pages come from the features; access rules live in guards.
import { lazy, Suspense, type ReactElement } from 'react';
import type { RouteObject } from 'react-router';
import { Loading } from '@/components/Spinner';
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
import { EnterprisePage } from '@/features/enterprise';
import { CheckoutPage } from '@/features/checkout';
import { PrivacyPage, TermsPage } from '@/features/legal';
import { LandingPage, ProductPage } from '@/features/storefront';
import { useContactSales } from './contactSales';
import { RootLayout } from './layout/RootLayout';
import { RequireAdmin, RequireUser } from './routes/guards';
import { NotFoundPage } from './routes/NotFoundPage';
import { PendingPage } from './routes/PendingPage';
import pages from './pages.json';

// The staff page's code loads only when staff open it.
const AdminEnterprisePage = lazy(() => import('@/features/enterprise/admin'));

function EnterpriseRoute() {
  const { openContactSales } = useContactSales();
  return <EnterprisePage onContactSales={openContactSales} />;
}
// The WireWrite staff screens load on first visit (RootLayout's Suspense shows the wait).
const WireWriteDashboardPage = lazy(() => import('@/features/companion').then((m) => ({ default: m.WireWriteDashboardPage })));
const WireWritePromoCodesPage = lazy(() => import('@/features/companion').then((m) => ({ default: m.PromoCodesPage })));
const WireWriteUsersPage = lazy(() => import('@/features/companion').then((m) => ({ default: m.UsersPage })));
const WireWriteCertificatesPage = lazy(() => import('@/features/companion').then((m) => ({ default: m.CertificatesPage })));

function LandingRoute() {
  const { openContactSales } = useContactSales();
  return <LandingPage onContactSales={openContactSales} />;
}

type PageEntry = (typeof pages.pages)[number];

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
      return (
        <Suspense fallback={<Loading text="Loading ..." />}>
          <AdminEnterprisePage />
        </Suspense>
      );
    case 'wirewrite':
      return <WireWriteDashboardPage />;
    case 'wirewrite-promo-codes':
      return <WireWritePromoCodesPage />;
    case 'wirewrite-users':
      return <WireWriteUsersPage />;
    case 'wirewrite-certificates':
      return <WireWriteCertificatesPage />;
    default:
      return <PendingPage title={entry.title} />;
  }
}

/** The pages of one access level as routes under their guard (paths relative to `base`). */
function pagesFor(access: PageEntry['access'], base = '/'): RouteObject[] {
  return pages.pages
    .filter((entry) => entry.access === access)
    .map((entry) => {
      const path = entry.path.slice(base.length);
      return path ? { path, element: elementOf(entry) } : { index: true, element: elementOf(entry) };
    });
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
