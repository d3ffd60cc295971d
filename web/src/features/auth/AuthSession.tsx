// The session half of the auth seam, loaded on demand by AuthProvider (its own chunk, with the
// auth client): the header, the route guards and every signed-in screen read the session only
// through useAuth(), which AuthProvider fills with what this component reports. The session itself
// belongs to the auth client (src/lib/authClient.ts, @supabase/auth-js against /auth/v1): this
// component follows it through onAuthStateChange and owns the dialogs that change it: Sign In /
// Create Account (with the code step), the code step on its own for a restored first-level
// session, and "Set a new password" after a password-reset or invitation link. It also signs out
// after 15 minutes of inactivity. It renders only the dialogs, beside the app rather than around
// it, so that loading it never re-mounts the page.
import { useQueryClient } from '@tanstack/react-query';
import { isAuthImplicitGrantRedirectError, type Session } from '@supabase/auth-js';
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { authClient, initialPasswordLinkType } from '@/lib/authClient';
import { SESSION_ENDED_TEXT, setSessionEndedHandler } from '@/lib/sessionEnded';
import type { PasswordLinkType } from '@/lib/emailLink';
import { AuthDialog, type AuthDialogMode } from './components/AuthDialog';
import { MfaDialog } from './components/MfaDialog';
import { SetPasswordDialog } from './components/SetPasswordDialog';
import { type AuthContextValue, toAuthUser, useInactivitySignOut, userIsAdmin, verifiedTotpFactors } from '@/lib/auth';

async function signOutLocally(): Promise<void> {
  // scope 'local' ends this session only: the person stays signed in on their other devices.
  const { error } = await authClient.signOut({ scope: 'local' });
  if (error) console.error('Sign-out failed', error);
}

export interface AuthSessionProps {
  /** Receives the auth state whenever it changes (AuthProvider puts it into AuthContext). */
  onChange: (value: AuthContextValue) => void;
  /** A session may be stored: report `loading` until the client has read it. */
  expectSession: boolean;
  /** Open the dialog at once on this form (the visitor asked before this code had loaded). */
  openOnMount: AuthDialogMode | null;
}

export function AuthSession({ onChange, expectSession, openOnMount }: AuthSessionProps) {
  const queryClient = useQueryClient();
  const [session, setSession] = useState<Session | null>(null);
  const [loading, setLoading] = useState(expectSession);
  const [needsMfa, setNeedsMfa] = useState(false);
  const [mfaRequested, setMfaRequested] = useState(false);
  const [signInOpen, setSignInOpen] = useState(openOnMount !== null);
  const [signInMode, setSignInMode] = useState<AuthDialogMode>(openOnMount ?? 'signIn');
  const [signInError, setSignInError] = useState<string | null>(null);
  const [passwordLink, setPasswordLink] = useState<PasswordLinkType | null>(initialPasswordLinkType);
  // Bumped on every session change so that a slow assurance-level check cannot overwrite a newer one.
  const mfaCheck = useRef(0);
  const userId = useRef<string | null>(null);
  // Set while a session found ended elsewhere is being signed out here (cleared by the next sign-in).
  const endingSession = useRef(false);

  useEffect(() => {
    const checkAssuranceLevel = async (next: Session, check: number) => {
      const { data, error } = await authClient.mfa.getAuthenticatorAssuranceLevel();
      if (check !== mfaCheck.current) return;
      if (error) {
        console.error('Could not read the assurance level', error);
        return;
      }
      setNeedsMfa(verifiedTotpFactors(next.user).length > 0 && data.currentLevel !== 'aal2');
    };

    const { data } = authClient.onAuthStateChange((event, next) => {
      setSession(next);
      setLoading(false);
      const check = ++mfaCheck.current;
      if (next) {
        // Deferred: auth-js asks that its own methods not be awaited inside this callback.
        window.setTimeout(() => void checkAssuranceLevel(next, check), 0);
      } else {
        setNeedsMfa(false);
        setMfaRequested(false);
        setPasswordLink(null);
      }
      if (event === 'PASSWORD_RECOVERY') setPasswordLink('recovery');
      if (event === 'SIGNED_IN') endingSession.current = false;

      // Another person's data must not survive a sign-out or a switch of account.
      const nextUserId = next?.user.id ?? null;
      if (event !== 'INITIAL_SESSION' && userId.current !== null && userId.current !== nextUserId) {
        void queryClient.resetQueries();
      }
      userId.current = nextUserId;
    });

    void authClient.initialize().then(({ error }) => {
      // The library empties a consumed fragment but leaves its '#'; an error fragment stays whole.
      const linkFailed = error !== null && isAuthImplicitGrantRedirectError(error);
      if (linkFailed || window.location.href.endsWith('#')) {
        window.history.replaceState(window.history.state, '', `${window.location.pathname}${window.location.search}`);
      }
      // An email link that failed (expired, already used): say so where the person can act on it.
      if (linkFailed) {
        setSignInError(error.message);
        setSignInOpen(true);
      }
    });

    return () => data.subscription.unsubscribe();
  }, [queryClient]);

  // A session ended elsewhere (lib/sessionEnded.ts, reported by the API client and the auth
  // client's fetch): end it here too, once however many calls were refused, and ask to sign in.
  useEffect(() => {
    setSessionEndedHandler(() => {
      if (endingSession.current) return;
      endingSession.current = true;
      void signOutLocally();
      setSignInError(SESSION_ENDED_TEXT);
      setSignInMode('signIn');
      setSignInOpen(true);
    });
    return () => setSessionEndedHandler(null);
  }, []);

  const openDialog = useCallback((mode: AuthDialogMode) => {
    setSignInMode(mode);
    setSignInOpen(true);
  }, []);
  const openSignIn = useCallback(() => openDialog('signIn'), [openDialog]);
  const openSignUp = useCallback(() => openDialog('signUp'), [openDialog]);
  const openMfa = useCallback(() => setMfaRequested(true), []);
  const signOut = useCallback(() => signOutLocally(), []);
  const closeSignIn = useCallback(() => {
    setSignInOpen(false);
    setSignInError(null);
  }, []);
  const onMfaVerified = useCallback(() => {
    ++mfaCheck.current;
    setNeedsMfa(false);
    setMfaRequested(false);
    // Calls refused with insufficient_aal can now succeed.
    void queryClient.invalidateQueries();
  }, [queryClient]);
  const closePasswordDialog = useCallback(() => setPasswordLink(null), []);

  const authUser = session?.user ?? null;
  const user = useMemo(() => (authUser ? toAuthUser(authUser) : null), [authUser]);
  const isAdmin = authUser ? userIsAdmin(authUser) : false;

  const signOutInactive = useCallback(() => void signOutLocally(), []);
  useInactivitySignOut(user !== null, signOutInactive);

  const value = useMemo<AuthContextValue>(
    () => ({ user, isAdmin, loading, needsMfa, openSignIn, openSignUp, openMfa, signOut }),
    [user, isAdmin, loading, needsMfa, openSignIn, openSignUp, openMfa, signOut],
  );

  const mfaDialogOpen = user !== null && (needsMfa || mfaRequested) && !signInOpen;
  const passwordDialogOpen = user !== null && passwordLink !== null && !needsMfa && !signInOpen;

  // Before paint, so that the header and the dialogs never show two different states.
  useLayoutEffect(() => {
    onChange(value);
  }, [onChange, value]);

  return (
    <>
      <AuthDialog open={signInOpen} initialMode={signInMode} onClose={closeSignIn} initialError={signInError} onMfaVerified={onMfaVerified} />
      <MfaDialog open={mfaDialogOpen} onVerified={onMfaVerified} onCancelled={() => setMfaRequested(false)} />
      {passwordLink ? <SetPasswordDialog open={passwordDialogOpen} linkType={passwordLink} onClose={closePasswordDialog} /> : null}
    </>
  );
}

