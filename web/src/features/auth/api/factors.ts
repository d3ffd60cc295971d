// Two-factor factors of the signed-in account, through the auth client (GoTrue: GET /user for the
// list, POST /factors to enrol, POST /factors/{id}/challenge and /verify, DELETE /factors/{id}).
// Removing a verified factor sends a current code with the DELETE (docs/auth.md), which auth-js's
// unenroll cannot carry, so that one call goes through apiFetch.
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '@/lib/api';
import { authClient } from '@/lib/authClient';
import { COMPANY_NAME } from '@/lib/company';

export const mfaKeys = {
  all: ['auth', 'mfa'] as const,
  factors: () => [...mfaKeys.all, 'factors'] as const,
};

/** Friendly name and issuer of new authenticators: the label shown in the authenticator app. */
export const AUTHENTICATOR_LABEL = `${COMPANY_NAME} Admin`;

export async function fetchFactors() {
  const { data, error } = await authClient.mfa.listFactors();
  if (error) throw error;
  return data;
}

export const factorsQuery = () =>
  queryOptions({
    queryKey: mfaKeys.factors(),
    queryFn: fetchFactors,
    staleTime: 0,
  });

export function useFactors() {
  return useQuery(factorsQuery());
}

export interface TotpEnrolment {
  factorId: string;
  uri: string;
  secret: string;
}

/** Name and issuer of a customer's authenticator (/account/security). */
export const ACCOUNT_AUTHENTICATOR_LABEL = COMPANY_NAME;

/**
 * Removes earlier unverified factors (abandoned set-ups), then enrols a new TOTP factor named
 * `label` (the admins' label unless told).
 */
export async function enrolTotp(label: string = AUTHENTICATOR_LABEL): Promise<TotpEnrolment> {
  const { data: factors, error: listError } = await authClient.mfa.listFactors();
  if (listError) throw listError;
  for (const factor of factors.all) {
    if (factor.status !== 'unverified') continue;
    const { error } = await authClient.mfa.unenroll({ factorId: factor.id });
    if (error) console.error('Could not remove an unverified factor', error);
  }
  const { data, error } = await authClient.mfa.enroll({
    factorType: 'totp',
    friendlyName: label,
    issuer: label,
  });
  if (error) throw error;
  return { factorId: data.id, uri: data.totp.uri, secret: data.totp.secret };
}

/** Challenge, then verify: turns the pending factor into a verified one. */
export async function verifyTotp(factorId: string, code: string): Promise<void> {
  const { data: challenge, error: challengeError } = await authClient.mfa.challenge({ factorId });
  if (challengeError) throw challengeError;
  const { error } = await authClient.mfa.verify({ factorId, challengeId: challenge.id, code });
  if (error) throw error;
}

/** Removes a factor: an unfinished set-up as it is, a verified one with `code` (TOTP or recovery code). */
export async function removeFactor(factorId: string, code?: string): Promise<void> {
  if (code !== undefined) {
    await apiFetch(`/auth/v1/factors/${encodeURIComponent(factorId)}`, { method: 'DELETE', body: { code } });
    return;
  }
  const { error } = await authClient.mfa.unenroll({ factorId });
  if (error) throw error;
}

export function useRemoveFactor() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ factorId, code }: { factorId: string; code: string }) => removeFactor(factorId, code),
    // The list, and the recovery codes (they go with the last factor).
    onSettled: () => queryClient.invalidateQueries({ queryKey: mfaKeys.all }),
  });
}
