// The subscription-check SDK's helpers (subscriptionCheck.ts uses them; not part of its API):
// reading answers and errors, the default storage and redirect, a token's unverified subject.
import type { KeyValueStorage, SubscriptionValidation } from './subscriptionCheckTypes';

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function errorText(error: unknown): string {
  if (error instanceof Error && error.message) return error.message;
  if (typeof error === 'string' && error) return error;
  return 'Unknown error';
}

export function defaultStorage(): KeyValueStorage | null {
  try {
    return typeof window !== 'undefined' ? window.localStorage : null;
  } catch {
    // Storage can be blocked (privacy settings, sandboxed frames): run without a cache.
    return null;
  }
}

export function defaultRedirect(url: string): void {
  if (typeof window === 'undefined') throw new Error('No browser window to redirect');
  window.location.assign(url);
}

/** The `sub` claim of a JWT, unverified; null when the token is not a readable JWT. */
export function tokenSubject(token: string): string | null {
  const payload = token.split('.')[1];
  if (!payload) return null;
  try {
    const base64 = payload.replace(/-/g, '+').replace(/_/g, '/');
    const json = atob(base64.padEnd(Math.ceil(base64.length / 4) * 4, '='));
    const claims: unknown = JSON.parse(json);
    return isRecord(claims) && typeof claims.sub === 'string' && claims.sub ? claims.sub : null;
  } catch {
    return null;
  }
}

/** A server answer as a result, or null when it is not one (no boolean valid / string status). */
export function readValidation(body: unknown): SubscriptionValidation | null {
  if (!isRecord(body) || typeof body.valid !== 'boolean' || typeof body.status !== 'string') return null;
  return {
    valid: body.valid,
    status: body.status,
    message: typeof body.message === 'string' ? body.message : '',
    expiresAt: typeof body.expiresAt === 'string' ? body.expiresAt : null,
    daysRemaining: typeof body.daysRemaining === 'number' && Number.isFinite(body.daysRemaining) ? body.daysRemaining : 0,
  };
}

export type PostOutcome = { ok: true; body: unknown } | { ok: false; message: string };

/** The error message of a failed answer: `message` ({code, message}), else `error` or `msg`. */
export function failureMessage(status: number, body: unknown): string {
  if (isRecord(body)) {
    for (const key of ['message', 'error', 'msg'] as const) {
      const value = body[key];
      if (typeof value === 'string' && value) return value;
    }
  }
  return `Request failed with status ${String(status)}`;
}
