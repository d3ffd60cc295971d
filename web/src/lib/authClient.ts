// The one auth client of the app: @supabase/auth-js against our GoTrue-compatible /auth/v1.
// The library owns the session: storage, the 30 s auto-refresh tick with its 90 s margin, refresh
// retries with backoff, reading email-link fragments, MFA and the assurance level. Nothing here
// re-implements any of that.
import { AuthClient } from '@supabase/auth-js';
import { authFetch } from './authFetch';
import { AUTH_STORAGE_KEY } from './authSession';
import { passwordLinkTypeFromHash, type PasswordLinkType } from './emailLink';

// Read before the client exists: creating it consumes and clears the fragment.
const passwordLinkType = passwordLinkTypeFromHash(window.location.hash);

export const authClient = new AuthClient({
  url: `${window.location.origin}/auth/v1`,
  storageKey: AUTH_STORAGE_KEY,
  autoRefreshToken: true,
  persistSession: true,
  detectSessionInUrl: true,
  flowType: 'implicit',
  // Notices a session ended elsewhere (lib/sessionEnded.ts).
  fetch: authFetch,
});

/** The kind of email link this page was opened from, when it asks for a new password. */
export function initialPasswordLinkType(): PasswordLinkType | null {
  return passwordLinkType;
}

/** The current access token (refreshed first by the library when it is about to expire), or null. */
export async function getAccessToken(): Promise<string | null> {
  const { data, error } = await authClient.getSession();
  if (error) return null;
  return data.session?.access_token ?? null;
}
