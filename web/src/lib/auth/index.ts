export { AuthContext, useAuth } from './context';
export type { AuthContextValue } from './context';
export { toAuthUser, userIsAdmin, verifiedTotpFactors } from './user';
export type { AuthUser } from './user';
export { ACTIVITY_EVENTS, INACTIVITY_TIMEOUT_MS, useInactivitySignOut } from './useInactivitySignOut';
