// A session that ended elsewhere ("Sign out of other devices", a password change, an admin's
// sign-out, the session's time box): the stored tokens still look fine to this browser, but the
// server refuses them. The one place that recognises those answers; features/auth's AuthSession
// installs the handler (sign out here, say so, open the sign-in dialog), lib/api.ts and the auth
// client's fetch (lib/authClient.ts) report to it. Apart from api.ts so that the shell can install
// it without loading the fetch wrapper (as mfaHandlers.ts).

export { isSessionEndedAnswer } from './sessionCodes';

/** What the page says when it finds the session gone. */
export const SESSION_ENDED_TEXT = 'You were signed out. Sign in again.';

/**
 * The auth API's refusals of a refresh token whose session has ended
 * (POST /auth/v1/token?grant_type=refresh_token, 400).
 */
const REFRESH_REFUSED_CODES = new Set(['refresh_token_not_found', 'session_expired', 'refresh_token_already_used']);

/** True when the auth API refused to refresh the session because it has ended. */
export function isRefreshRefused(status: number, code: string): boolean {
  return status === 400 && REFRESH_REFUSED_CODES.has(code);
}

type Handler = () => void;

let handler: Handler | null = null;
/** Reported before a handler was installed (the session code was still loading): run on install. */
let pending = false;

/** Installs (or, with null, removes) the app's reaction to an ended session. */
export function setSessionEndedHandler(next: Handler | null): void {
  handler = next;
  if (next && pending) {
    pending = false;
    next();
  }
}

/** Forgets a report no handler heard (between tests). */
export function clearSessionEndedReport(): void {
  pending = false;
}

/** Tells the app that the server no longer knows this browser's session. */
export function reportSessionEnded(): void {
  if (handler) handler();
  else pending = true;
}
