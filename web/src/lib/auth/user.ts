// How the app reads the auth library's user: identity, display name, admin role, TOTP factors.
import type { Factor, User } from '@supabase/auth-js';

export interface AuthUser {
  id: string;
  email: string;
  fullName?: string | null;
}

export function toAuthUser(user: User): AuthUser {
  const fullName: unknown = user.user_metadata.full_name;
  return {
    id: user.id,
    email: user.email ?? '',
    fullName: typeof fullName === 'string' && fullName.trim() ? fullName : null,
  };
}

/**
 * Display only: the server sets `app_metadata.roles` (a string array) and enforces every admin
 * rule itself; this just decides which links and screens to show.
 */
export function userIsAdmin(user: User): boolean {
  const roles: unknown = user.app_metadata.roles;
  return Array.isArray(roles) && roles.includes('admin');
}

export function verifiedTotpFactors(user: User): Factor[] {
  return (user.factors ?? []).filter((factor) => factor.factor_type === 'totp' && factor.status === 'verified');
}

