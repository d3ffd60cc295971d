// The route table (spec section 2). Pages come from the features; access rules live in guards.
import type { RouteObject } from 'react-router';
import { DashboardPage, TestSubscriptionPage } from '@/features/account';
import { SecuritySettingsPage } from '@/features/auth';
import { CheckoutPage } from '@/features/checkout';
import { PrivacyPage, TermsPage } from '@/features/legal';
import { LandingPage, ProductPage } from '@/features/storefront';
import { useContactSales } from './contactSales';
import { RootLayout } from './layout/RootLayout';
import { RequireAdmin, RequireUser } from './routes/guards';
import { NotFoundPage } from './routes/NotFoundPage';
import { PendingPage } from './routes/PendingPage';

function LandingRoute() {
  const { openContactSales } = useContactSales();
  return <LandingPage onContactSales={openContactSales} />;
}

const ADMIN_PAGES: { path: string; title: string }[] = [
  { path: 'products', title: 'Product Management' },
  { path: 'subscriptions', title: 'Subscription Management' },
  { path: 'orders', title: 'Order Management' },
  { path: 'enterprise', title: 'Enterprise Account Management' },
  { path: 'wirewrite', title: 'WireWrite Admin' },
  { path: 'wirewrite/promo-codes', title: 'Promo Codes' },
  { path: 'wirewrite/users', title: 'Manage Users' },
  { path: 'wirewrite/certificates', title: 'All Certificates' },
];

export const routes: RouteObject[] = [
  {
    element: <RootLayout />,
    children: [
      { index: true, element: <LandingRoute /> },
      { path: 'product/:slug', element: <ProductPage /> },
      { path: 'terms', element: <TermsPage /> },
      { path: 'privacy', element: <PrivacyPage /> },
      {
        path: 'checkout/:slug',
        element: (
          <RequireUser openSignIn>
            <CheckoutPage />
          </RequireUser>
        ),
      },
      {
        element: <RequireUser />,
        children: [
          { path: 'dashboard', element: <DashboardPage /> },
          { path: 'enterprise', element: <PendingPage title="Enterprise Management" /> },
          { path: 'test-subscription', element: <TestSubscriptionPage /> },
        ],
      },
      {
        path: 'admin',
        element: <RequireAdmin />,
        children: [
          { index: true, element: <PendingPage title="Admin Dashboard" /> },
          { path: 'mfa', element: <SecuritySettingsPage /> },
          ...ADMIN_PAGES.map(({ path, title }) => ({ path, element: <PendingPage title={title} /> })),
        ],
      },
      { path: '*', element: <NotFoundPage /> },
    ],
  },
];
