// The signed-in visitor's pages. Each loads on first use (React.lazy), so visitors to the
// landing and product pages never download them; RootLayout's Suspense shows 'Loading ...'.
import { lazy } from 'react';

export const DashboardPage = lazy(() => import('./routes/DashboardPage').then((m) => ({ default: m.DashboardPage })));
export const TestSubscriptionPage = lazy(() => import('./routes/TestSubscriptionPage').then((m) => ({ default: m.TestSubscriptionPage })));
export const InvoicesPage = lazy(() => import('./routes/InvoicesPage').then((m) => ({ default: m.InvoicesPage })));
export const InvoicePage = lazy(() => import('./routes/InvoicePage').then((m) => ({ default: m.InvoicePage })));
export const AccountPage = lazy(() => import('./routes/AccountPage').then((m) => ({ default: m.AccountPage })));
// The account pages' navigation, for pages of other features under /account (the route table
// puts it on /account/security).
export { AccountNav } from './components/AccountNav';
