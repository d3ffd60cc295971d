// The account page's changes, through the auth client (GoTrue, docs/auth.md): PUT /auth/v1/user
// for the name (user metadata, mirrored to the profile), an email change (a link to the new
// address; the change happens when it is opened) and a password change (the server checks the
// current password and ends every other session); POST /auth/v1/logout?scope=others.
import { useQueryClient } from '@tanstack/react-query';
import { authClient } from '@/lib/authClient';
import { errorMessage } from '@/lib/api';
import { meKeys } from '@/lib/me';

export const MAX_FULL_NAME_LENGTH = 100;

/** The server's refusals, by code, as the page's own sentences (the server's message otherwise). */
const REFUSALS: Record<string, string> = {
  current_password_required: 'Enter your current password.',
  current_password_invalid: 'Your current password is not right. Nothing was changed.',
  same_password: 'The new password must be different from your current one.',
  email_exists: 'That email address is already used by another account.',
  email_address_invalid: 'Enter a valid email address.',
  over_email_send_rate_limit: 'Too many emails were sent to that address. Please wait and try again.',
  over_request_rate_limit: 'Too many attempts. Please wait a few minutes and try again.',
};

export function refusalText(error: unknown, fallback: string): string {
  const code = typeof error === 'object' && error !== null && 'code' in error ? (error as { code?: unknown }).code : undefined;
  if (typeof code === 'string' && code in REFUSALS) return REFUSALS[code] ?? fallback;
  return errorMessage(error, fallback);
}

async function updateUser(...args: Parameters<typeof authClient.updateUser>): Promise<void> {
  const { error } = await authClient.updateUser(...args);
  if (error) throw error;
}

export function saveFullName(fullName: string): Promise<void> {
  return updateUser({ data: { full_name: fullName } });
}

/** Sends the confirmation link to `email`; it brings the user back to /account. */
export function requestEmailChange(email: string): Promise<void> {
  return updateUser({ email }, { emailRedirectTo: `${window.location.origin}/account` });
}

export function changePassword(currentPassword: string, newPassword: string): Promise<void> {
  return updateUser({ password: newPassword, current_password: currentPassword });
}

export async function signOutOtherDevices(): Promise<void> {
  const { error } = await authClient.signOut({ scope: 'others' });
  if (error) throw error;
}

/** Asks the signed-in shell's /me again (after a change it shows: name, pending email). */
export function useRefreshMe() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: meKeys.all });
}
