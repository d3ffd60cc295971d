import { lazy } from 'react';

// The session state (useAuth, AuthContext) lives in @/lib/auth; this feature fills it and owns
// the dialogs that change it.
export { AuthProvider } from './AuthProvider';

/** /admin/mfa, loaded on first use: it is for admins only and brings the QR-code library. */
export const SecuritySettingsPage = /* @__PURE__ */ lazy(() =>
  import('./routes/SecuritySettingsPage').then((module) => ({ default: module.SecuritySettingsPage })),
);
