export { AuthContext, AuthProvider, useAuth } from './AuthProvider';
export type { AuthContextValue, AuthUser } from './AuthProvider';
