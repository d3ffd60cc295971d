// The auth feature's page for the route table (app/routes.tsx), apart from index.ts, which the
// providers import into every page's first chunk (a module shared with it lands there whole).
import { lazy } from 'react';

/** /admin/mfa, loaded on first use: it is for admins only and brings the QR-code library. */
export const SecuritySettingsPage = /* @__PURE__ */ lazy(() =>
  import('./routes/SecuritySettingsPage').then((module) => ({ default: module.SecuritySettingsPage })),
);
