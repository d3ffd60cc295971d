// What the app does when the server refuses a call for two-factor reasons (403): the admin API
// answers `mfa_enrollment_required` until an admin has enrolled an authenticator, and
// `insufficient_aal` while the session has not passed the code step. RootLayout installs the
// handlers; apiFetch (lib/api.ts) calls them. Apart from api.ts so that the shell can install
// them without loading the fetch wrapper, which the first page does not need (docs/performance.md).

export interface MfaHandlers {
  /** `mfa_enrollment_required`: send the admin to two-factor setup. */
  enrolmentRequired: () => void;
  /** `insufficient_aal`: ask for the authenticator code. */
  codeRequired: () => void;
}

let mfaHandlers: MfaHandlers | null = null;

/** Installs (or, with null, removes) the app's handlers for two-factor refusals. */
export function setMfaHandlers(handlers: MfaHandlers | null): void {
  mfaHandlers = handlers;
}

/** The installed handlers, if any. */
export function currentMfaHandlers(): MfaHandlers | null {
  return mfaHandlers;
}
