// GET /api/v1/account/me (docs/auth.md): the signed-in shell's one call for who the user is: their
// name, roles, two-factor factors, enterprise account (or null) and any email change waiting for
// its link. The header and every page read it through useMe(), one cached answer per user, asked
// only once signed in and past the two-factor step, so no page asks for what the user does not have.
// Checked by hand rather than with the schema library: the header is in every page's first chunk.
import { useQuery } from '@tanstack/react-query';
import { apiFetch, ApiError, INVALID_RESPONSE } from './api';
import { useAuth } from './auth';

export interface MeFactor {
  id: string;
  friendly_name: string;
  /** 'verified' or 'unverified'. */
  status: string;
}

export interface MeEnterprise {
  id: string;
  name: string;
  /** 'admin' for the account's admin, else 'member'. */
  role: string;
}

export interface Me {
  id: string;
  email: string | null;
  full_name: string | null;
  roles: string[];
  aal: string;
  factors: MeFactor[];
  enterprise: MeEnterprise | null;
  pending_email: string | null;
}

export const meKeys = {
  all: ['me'] as const,
  of: (userId: string) => [...meKeys.all, userId] as const,
};

const isText = (value: unknown): value is string => typeof value === 'string';
const isTextOrNull = (value: unknown): value is string | null => value === null || typeof value === 'string';
const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

function isFactor(value: unknown): value is MeFactor {
  return isObject(value) && isText(value.id) && isText(value.friendly_name) && isText(value.status);
}

function isEnterprise(value: unknown): value is MeEnterprise {
  return isObject(value) && isText(value.id) && isText(value.name) && isText(value.role);
}

/** The answer, when it has the documented shape; null otherwise. */
export function readMe(body: unknown): Me | null {
  if (!isObject(body)) return null;
  const { id, email, full_name, roles, aal, factors, enterprise, pending_email } = body;
  if (!isText(id) || !isTextOrNull(email) || !isTextOrNull(full_name) || !isText(aal) || !isTextOrNull(pending_email)) return null;
  if (!Array.isArray(roles) || !roles.every(isText)) return null;
  if (!Array.isArray(factors) || !factors.every(isFactor)) return null;
  if (enterprise !== null && !isEnterprise(enterprise)) return null;
  return { id, email, full_name, roles, aal, factors, enterprise, pending_email };
}

export async function fetchMe(signal?: AbortSignal): Promise<Me> {
  const body = await apiFetch<unknown>('/api/v1/account/me', signal ? { signal } : {});
  const me = readMe(body);
  if (!me) {
    console.error('Unexpected answer from /api/v1/account/me', body);
    throw new ApiError(200, INVALID_RESPONSE, 'The server sent an answer this page does not understand. Please reload.');
  }
  return me;
}

/** The signed-in user as the server knows them; undefined while loading, signed out or at the code step. */
export function useMe() {
  const { user, needsMfa } = useAuth();
  return useQuery({
    queryKey: meKeys.of(user?.id ?? ''),
    queryFn: ({ signal }) => fetchMe(signal),
    enabled: Boolean(user) && !needsMfa,
    staleTime: 60_000,
  });
}
