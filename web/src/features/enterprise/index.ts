// The enterprise feature: the account admin's team page, the header's Enterprise link (shown to
// someone who administers an account), and the staff page. All three load on first use
// (React.lazy), so neither they nor the schema library reach a visitor who never signs in. The
// pages are in pages.ts (the route table's chunk), the link here (the header's, in every page).
import { lazy } from 'react';

export const EnterpriseNavItem = /* @__PURE__ */ lazy(() => import('./components/EnterpriseNavItem').then((m) => ({ default: m.EnterpriseNavItem })));
