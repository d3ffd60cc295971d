// The route table (spec section 2). Pages come from the features; access rules live in guards.
// Staff pages are lazy (each feature's index exports them through React.lazy); RootLayout's
// Suspense shows 'Loading ...' while their code arrives. The app itself renders shell.tsx, which
// has '/' and '/product/:slug' and loads `pageRoutes` (this file, its own chunk) for any other
// path, so the landing and product pages do not carry this table (docs/performance.md).
import type { ReactElement } from 'react';
import type { RouteObject } from 'react-router';
import { AccountNav, AccountPage, DashboardPage, InvoicePage, InvoicesPage, TestSubscriptionPage } from '@/features/account';
import {
  AdminDashboardPage,
  AuditLogPage,
  CustomerDetailPage,
  CustomerManagementPage,
  EnquiriesPage,
  GstReportPage,
  InvoiceRegisterPage,
  MailOutboxPage,
  OrderDetailPage,
  OrderManagementPage,
  PackingSlipPage,
  ProductManagementPage,
  StaffShell,
  SubscriptionManagementPage,
} from '@/features/admin';
import { SecuritySettingsPage } from '@/features/auth/pages';
import { CertificatesPage, PromoCodesPage, UsersPage, WireWriteDashboardPage } from '@/features/companion';
import { AdminEnterprisePage, EnterprisePage } from '@/features/enterprise/pages';
import { CheckoutPage } from '@/features/checkout';
import { PrivacyPage, TermsPage } from '@/features/legal';
import { YourDataPage } from '@/features/privacy';
import { ProductPage } from '@/features/storefront';
import { useContactSales } from './contactSales';
import { RootLayout } from './layout/RootLayout';
import { RequireAdmin, RequireUser } from './routes/guards';
import { NotFoundPage } from './routes/NotFoundPage';
import { LandingRoute } from './routes/LandingRoute';
import { SignUpRoute } from './routes/SignUpRoute';
import { pages } from './pages.json';

function EnterpriseRoute() {
  const { openContactSales } = useContactSales();
  return <EnterprisePage onContactSales={openContactSales} />;
}

type PageEntry = (typeof pages)[number];

/** Every page kind pages.json may name (its `page`); each has its case in elementOf. */
const PAGE_KINDS = [
  'terms',
  'privacy',
  'signup',
  'checkout',
  'dashboard',
  'test-subscription',
  'invoices',
  'invoice',
  'account',
  'account-security',
  'your-data',
  'security-settings',
  'admin-dashboard',
  'admin-products',
  'admin-subscriptions',
  'admin-orders',
  'admin-order',
  'admin-packing-slip',
  'admin-invoices',
  'admin-gst-report',
  'admin-audit',
  'admin-customers',
  'admin-customer',
  'admin-mail',
  'admin-enquiries',
  'enterprise',
  'admin-enterprise',
  'wirewrite',
  'wirewrite-promo-codes',
  'wirewrite-users',
  'wirewrite-certificates',
] as const;

export type PageKind = (typeof PAGE_KINDS)[number];

export function isPageKind(value: string): value is PageKind {
  return (PAGE_KINDS as readonly string[]).includes(value);
}

/** The element of each page kind: a kind without its case fails to compile (the `never` below). */
function elementOf(kind: PageKind): ReactElement {
  switch (kind) {
    case 'terms':
      return <TermsPage />;
    case 'privacy':
      return <PrivacyPage />;
    case 'signup':
      return <SignUpRoute />;
    case 'checkout':
      return <CheckoutPage />;
    case 'dashboard':
      return <DashboardPage />;
    case 'test-subscription':
      return <TestSubscriptionPage />;
    case 'invoices':
      return <InvoicesPage />;
    case 'invoice':
      return <InvoicePage />;
    case 'account':
      return <AccountPage />;
    case 'account-security':
      return <SecuritySettingsPage audience="account" nav={<AccountNav />} />;
    case 'your-data':
      return <YourDataPage nav={<AccountNav />} />;
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
    case 'admin-packing-slip':
      return <PackingSlipPage />;
    case 'admin-invoices':
      return <InvoiceRegisterPage />;
    case 'admin-gst-report':
      return <GstReportPage />;
    case 'admin-audit':
      return <AuditLogPage />;
    case 'admin-customers':
      return <CustomerManagementPage />;
    case 'admin-customer':
      return <CustomerDetailPage />;
    case 'admin-mail':
      return <MailOutboxPage />;
    case 'admin-enquiries':
      return <EnquiriesPage />;
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
    default: {
      const missing: never = kind;
      throw new Error(`No page for the page kind ${String(missing)}`);
    }
  }
}

/** An entry's element; pages.json naming a kind the app does not know is a build-time mistake. */
function elementOfEntry(entry: PageEntry): ReactElement {
  if (!isPageKind(entry.page)) throw new Error(`pages.json names an unknown page kind "${entry.page}" (${entry.path})`);
  return elementOf(entry.page);
}

/** The pages of one access level as routes under their guard (paths relative to `base`). */
function pagesFor(access: PageEntry['access'], base = '/'): RouteObject[] {
  return pages
    .filter((entry) => entry.access === access)
    .map((entry) => {
      const path = entry.path.slice(base.length);
      return path ? { path, element: elementOfEntry(entry) } : { index: true, element: elementOfEntry(entry) };
    });
}

const OUTSIDE_STAFF_SHELL = new Set(['mfa', 'orders/:id/packing-slip']);

/** Every page but '/' and '/product/:slug' (which the server renders from the catalogue), and not-found. */
export const pageRoutes: RouteObject[] = [
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
    children: [
      // Every staff page sits in the staff frame (side navigation, to-do counts) but the printable
      // packing slip and the two-factor set-up (where an admin without a second factor is sent).
      { element: <StaffShell />, children: pagesFor('admin', '/admin/').filter((route) => !OUTSIDE_STAFF_SHELL.has(route.path ?? '')) },
      ...pagesFor('admin', '/admin/').filter((route) => OUTSIDE_STAFF_SHELL.has(route.path ?? '')),
    ],
  },
  { path: '*', element: <NotFoundPage /> },
];

/** The whole table in one, as the app serves it (the tests route through this). */
export const routes: RouteObject[] = [
  {
    element: <RootLayout />,
    children: [{ index: true, element: <LandingRoute /> }, { path: 'product/:slug', element: <ProductPage /> }, ...pageRoutes],
  },
];
