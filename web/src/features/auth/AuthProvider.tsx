// The seam between the app and authentication: the header, the route guards and every signed-in
// screen read the session only through useAuth(), which this provider fills.
//
// It is small on purpose. The session code (AuthSession.tsx: the auth client, the dialogs, the
// inactivity sign-out) is its own chunk, loaded only when it is needed (docs/performance.md):
//   * at start-up, when a session is stored in this browser or the URL carries an email link's
//     result (lib/authSession.ts decides synchronously): `loading` is true until the client has
//     read the session, so the header shows a blank of the buttons' size instead of flashing
//     Sign In to a signed-in visitor;
//   * when the visitor asks to sign in (the dialog opens as soon as the code is there);
//   * when another tab of this site signs in (a `storage` event on the session key).
// A visitor who never signs in never downloads it. AuthSession renders beside the app, not around
// it, so loading it never re-mounts the page.
import { useCallback, useEffect, useMemo, useState, type ComponentType, type ReactNode } from 'react';
import { AuthContext, type AuthContextValue } from '@/lib/auth';
import { AUTH_STORAGE_KEY, authNeededAtStart } from '@/lib/authSession';
import type { AuthSessionProps } from './AuthSession';
import type { AuthDialogMode } from './components/AuthDialog';

const loadAuthSession = () => import('./AuthSession').then((module) => module.AuthSession);

const noop = () => undefined;
const resolved = () => Promise.resolve();

export function AuthProvider({ children }: { children: ReactNode }) {
  const [neededAtStart] = useState(authNeededAtStart);
  const [needed, setNeeded] = useState(neededAtStart);
  const [dialogRequested, setDialogRequested] = useState<AuthDialogMode | null>(null);
  const [Session, setSession] = useState<ComponentType<AuthSessionProps> | null>(null);
  const [reported, setReported] = useState<AuthContextValue | null>(null);

  useEffect(() => {
    if (!needed || Session) return;
    let current = true;
    loadAuthSession().then(
      (component) => {
        if (current) setSession(() => component);
      },
      (error: unknown) => {
        console.error('Could not load the sign-in code', error);
        // A later request (another click on Sign In) tries again.
        if (current) setNeeded(false);
      },
    );
    return () => {
      current = false;
    };
  }, [needed, Session]);

  // Signing in in another tab writes the session key here too: follow it as the client would.
  useEffect(() => {
    if (needed) return;
    const onStorage = (event: StorageEvent) => {
      if (event.key === AUTH_STORAGE_KEY && event.newValue) setNeeded(true);
    };
    window.addEventListener('storage', onStorage);
    return () => window.removeEventListener('storage', onStorage);
  }, [needed]);

  const openSignIn = useCallback(() => {
    setDialogRequested('signIn');
    setNeeded(true);
  }, []);
  const openSignUp = useCallback(() => {
    setDialogRequested('signUp');
    setNeeded(true);
  }, []);

  // Until the session code reports: signed out, or loading when a session is being restored.
  const beforeLoad = useMemo<AuthContextValue>(
    () => ({
      user: null,
      isAdmin: false,
      loading: neededAtStart,
      needsMfa: false,
      openSignIn,
      openSignUp,
      openMfa: noop,
      signOut: resolved,
    }),
    [neededAtStart, openSignIn, openSignUp],
  );

  return (
    <AuthContext.Provider value={reported ?? beforeLoad}>
      {children}
      {Session ? <Session onChange={setReported} expectSession={neededAtStart} openOnMount={dialogRequested} /> : null}
    </AuthContext.Provider>
  );
}
