// The seam between the app and authentication. The header, the route guards and every signed-in
// screen read the session only through useAuth(), so the authentication work (GoTrue-compatible
// /auth/v1 through @supabase/auth-js, the Sign In / Create Account dialog, MFA) replaces this
// provider and nothing else. Until it lands every visitor is signed out, and openSignIn() has no
// dialog to open.
import { createContext, useContext, useMemo, type ReactNode } from 'react';

export interface AuthUser {
  id: string;
  email: string;
  fullName?: string | null;
}

export interface AuthContextValue {
  user: AuthUser | null;
  isAdmin: boolean;
  /** True while the stored session is being restored at start-up. */
  loading: boolean;
  openSignIn: () => void;
  signOut: () => Promise<void>;
}

const signedOut: AuthContextValue = {
  user: null,
  isAdmin: false,
  loading: false,
  openSignIn: () => undefined,
  signOut: () => Promise.resolve(),
};

export const AuthContext = createContext<AuthContextValue>(signedOut);

export function AuthProvider({ children }: { children: ReactNode }) {
  const value = useMemo(() => signedOut, []);
  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}

export function useAuth(): AuthContextValue {
  return useContext(AuthContext);
}
