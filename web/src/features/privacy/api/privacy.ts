// GET /api/v1/account/export (the account's data as one JSON file) and DELETE /api/v1/account
// (closing it, with the current password and, when two-factor is on, a code). docs/privacy.md.
import { useMutation, useQuery } from '@tanstack/react-query';
import { ApiError, apiFetch } from '@/lib/api';
import { authClient, getAccessToken } from '@/lib/authClient';

export const EXPORT_PATH = '/api/v1/account/export';

/** The file name the server gives the download (Content-Disposition), else a dated default. */
export function exportFileName(disposition: string | null, today = new Date()): string {
  const match = disposition ? /filename="([^"]+)"/.exec(disposition) : null;
  return match?.[1] ?? `storefront-data-${today.toISOString().slice(0, 10)}.json`;
}

/** Fetches the export and hands it to the browser as a download. */
export async function downloadMyData(): Promise<string> {
  const token = await getAccessToken();
  let response: Response;
  try {
    response = await fetch(EXPORT_PATH, {
      headers: { Accept: 'application/json', ...(token ? { Authorization: `Bearer ${token}` } : {}) },
      credentials: 'same-origin',
    });
  } catch {
    throw new ApiError(0, 'network_error', 'The server could not be reached.');
  }
  if (!response.ok) {
    const body = (await response.json().catch(() => null)) as { code?: string; message?: string } | null;
    throw new ApiError(response.status, body?.code ?? 'http_error', body?.message ?? 'Your data could not be downloaded.');
  }
  const blob = await response.blob();
  const name = exportFileName(response.headers.get('Content-Disposition'));
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.appendChild(link);
  link.click();
  link.remove();
  URL.revokeObjectURL(url);
  return name;
}

export function useDownloadMyData() {
  return useMutation({ mutationFn: downloadMyData });
}

/** Whether the account has a verified authenticator (the close form then asks for a code). */
export function useTwoFactorOn() {
  return useQuery({
    queryKey: ['privacy', 'two-factor'],
    queryFn: async () => {
      const { data, error } = await authClient.mfa.listFactors();
      if (error) throw error;
      return data.totp.length > 0;
    },
  });
}

export interface CloseAccountInput {
  password: string;
  code?: string;
}

/** Resolves once the account is closed (204); an ApiError otherwise. */
export async function closeAccount(input: CloseAccountInput): Promise<null> {
  const body: Record<string, string> = { password: input.password };
  if (input.code) body.code = input.code;
  await apiFetch<unknown>('/api/v1/account', { method: 'DELETE', body });
  return null;
}

export function useCloseAccount() {
  return useMutation({ mutationFn: closeAccount });
}
