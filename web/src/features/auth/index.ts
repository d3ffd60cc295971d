import { lazy } from 'react';

export { AuthContext, AuthProvider, useAuth } from './AuthProvider';
export type { AuthContextValue, AuthUser } from './AuthProvider';
export { INACTIVITY_TIMEOUT_MS } from './useInactivitySignOut';

/** /admin/mfa, loaded on first use: it is for admins only and brings the QR-code library. */
export const SecuritySettingsPage = lazy(() =>
  import('./routes/SecuritySettingsPage').then((module) => ({ default: module.SecuritySettingsPage })),
);
