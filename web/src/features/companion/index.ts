// The WireWrite staff screens (/admin/wirewrite/*). Each page loads on first use (React.lazy), so
// visitors never download them; RootLayout's Suspense shows 'Loading ...' meanwhile.
import { lazy } from 'react';

export const WireWriteDashboardPage = lazy(() => import('./routes/WireWriteDashboardPage').then((m) => ({ default: m.WireWriteDashboardPage })));
export const PromoCodesPage = lazy(() => import('./routes/PromoCodesPage').then((m) => ({ default: m.PromoCodesPage })));
export const UsersPage = lazy(() => import('./routes/UsersPage').then((m) => ({ default: m.UsersPage })));
export const CertificatesPage = lazy(() => import('./routes/CertificatesPage').then((m) => ({ default: m.CertificatesPage })));
