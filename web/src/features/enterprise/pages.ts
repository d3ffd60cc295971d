// The enterprise pages for the route table (app/routes.tsx), loaded on first use (React.lazy). A
// module of their own, apart from index.ts: the header imports index.ts into every page's first
// chunk, and a module shared with it lands there whole (docs/performance.md).
import { lazy } from 'react';

export const EnterprisePage = /* @__PURE__ */ lazy(() => import('./routes/EnterprisePage').then((m) => ({ default: m.EnterprisePage })));
export const AdminEnterprisePage = /* @__PURE__ */ lazy(() => import('./routes/AdminEnterprisePage').then((m) => ({ default: m.AdminEnterprisePage })));
