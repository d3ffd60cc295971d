// The server's email links (/auth/v1/verify) land on `<origin>/#access_token=...&type=<kind>`.
// auth-js reads that fragment, stores the session and clears the hash, and only a recovery link
// raises an event of its own (PASSWORD_RECOVERY); an invite link looks like any other sign-in.
// So the kind is read here, before the auth client is created, and remembered for the app.

/** The email links after which the person must choose a password. */
export type PasswordLinkType = 'recovery' | 'invite';

/** `recovery` or `invite` when `hash` is a successful email-link fragment of that kind, else null. */
export function passwordLinkTypeFromHash(hash: string): PasswordLinkType | null {
  const params = new URLSearchParams(hash.startsWith('#') ? hash.slice(1) : hash);
  if (!params.get('access_token')) return null;
  const type = params.get('type');
  return type === 'recovery' || type === 'invite' ? type : null;
}
