// Whether this page needs the auth client at all, decided synchronously before anything renders.
// The client (@supabase/auth-js, about 18 KB compressed) is loaded only when there is a session to
// restore, an email-link fragment to read, or the visitor asks to sign in; a visitor who never
// signs in never downloads it (docs/performance.md). Nothing here imports the client.

/** The localStorage key under which the auth client keeps the session (authClient.ts). */
export const AUTH_STORAGE_KEY = 'storefront-auth';

function storage(): Storage | null {
  try {
    return window.localStorage;
  } catch {
    // Storage disabled by the browser: the client could not have stored a session either.
    return null;
  }
}

/** True when the auth client has a session stored in this browser (valid or not: it decides). */
export function hasStoredSession(): boolean {
  return Boolean(storage()?.getItem(AUTH_STORAGE_KEY));
}

/** True when the URL carries an email link's result for the auth client (a session or an error). */
export function hasAuthFragment(hash: string = window.location.hash): boolean {
  const params = new URLSearchParams(hash.startsWith('#') ? hash.slice(1) : hash);
  return params.has('access_token') || params.has('error_description') || params.has('error');
}

/** True when the page must load the auth client at start-up. */
export function authNeededAtStart(): boolean {
  return hasStoredSession() || hasAuthFragment();
}
