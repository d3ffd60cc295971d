// The seam between the app and authentication: the header, the route guards and every signed-in
// screen read the session only through useAuth(). features/auth's AuthProvider fills it (it owns
// the dialogs that change the session); anything may read it.
import { createContext, useContext } from 'react';
import type { AuthUser } from './user';

export interface AuthContextValue {
  user: AuthUser | null;
  /** Display only: `app_metadata.roles` includes 'admin'. The server enforces every rule. */
  isAdmin: boolean;
  /** True while the stored session is being restored at start-up. */
  loading: boolean;
  /** The account has a verified authenticator and this session has not passed the code step. */
  needsMfa: boolean;
  openSignIn: () => void;
  /** Opens the same dialog on its Create Account form (/signup). */
  openSignUp: () => void;
  /** Opens the code step (the server answered `insufficient_aal`). */
  openMfa: () => void;
  signOut: () => Promise<void>;
}

/** A visitor with no session and nothing to restore (the context's value outside AuthProvider). */
export const signedOut: AuthContextValue = {
  user: null,
  isAdmin: false,
  loading: false,
  needsMfa: false,
  openSignIn: () => undefined,
  openSignUp: () => undefined,
  openMfa: () => undefined,
  signOut: () => Promise.resolve(),
};

export const AuthContext = createContext<AuthContextValue>(signedOut);

export function useAuth(): AuthContextValue {
  return useContext(AuthContext);
}
