// The enterprise feature: the account admin's team page, the header's Enterprise link (shown to
// someone who administers an account), and the staff page. All three load on first use
// (React.lazy), so neither they nor the schema library reach a visitor who never signs in.
import { lazy } from 'react';

export const EnterpriseNavItem = /* @__PURE__ */ lazy(() => import('./components/EnterpriseNavItem').then((m) => ({ default: m.EnterpriseNavItem })));
export const EnterprisePage = /* @__PURE__ */ lazy(() => import('./routes/EnterprisePage').then((m) => ({ default: m.EnterprisePage })));
export const AdminEnterprisePage = /* @__PURE__ */ lazy(() => import('./routes/AdminEnterprisePage').then((m) => ({ default: m.AdminEnterprisePage })));
