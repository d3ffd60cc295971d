import type * as AuthJs from '@supabase/auth-js';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { passwordLinkTypeFromHash } from './emailLink';

// This file checks the real module; every other test uses the fake from src/test/setup.ts.
vi.unmock('@/lib/authClient');

const constructed = vi.hoisted(() => ({ options: [] as unknown[], hashSeen: [] as string[] }));

vi.mock('@supabase/auth-js', async (importOriginal) => {
  const original = await importOriginal<typeof AuthJs>();
  // The library consumes the fragment while it is created; the fake does the same.
  const AuthClient = vi.fn(function (this: { getSession: () => Promise<unknown> }, options: unknown) {
    constructed.options.push(options);
    constructed.hashSeen.push(window.location.hash);
    window.history.replaceState(null, '', window.location.pathname);
    this.getSession = () =>
      Promise.resolve({ data: { session: { access_token: 'jwt-abc' } }, error: null });
  });
  return { ...original, AuthClient };
});

async function loadWithHash(hash: string) {
  window.history.replaceState(null, '', `/${hash}`);
  vi.resetModules();
  return import('@/lib/authClient');
}

describe('the auth client module', () => {
  beforeEach(() => {
    constructed.options.length = 0;
    constructed.hashSeen.length = 0;
  });
  afterEach(() => {
    window.history.replaceState(null, '', '/');
  });

  it('creates one AuthClient for /auth/v1 of this origin with the project settings', async () => {
    await loadWithHash('');
    expect(constructed.options).toEqual([
      {
        url: `${window.location.origin}/auth/v1`,
        storageKey: 'storefront-auth',
        autoRefreshToken: true,
        persistSession: true,
        detectSessionInUrl: true,
        flowType: 'implicit',
        fetch: expect.any(Function) as unknown,
      },
    ]);
  });

  it('remembers a recovery or invite link read before the client consumed the fragment', async () => {
    const recovery = await loadWithHash('#access_token=a&refresh_token=r&expires_in=3600&token_type=bearer&type=recovery');
    expect(constructed.hashSeen[0]).toContain('type=recovery');
    expect(window.location.hash).toBe('');
    expect(recovery.initialPasswordLinkType()).toBe('recovery');

    const invite = await loadWithHash('#access_token=a&refresh_token=r&type=invite');
    expect(invite.initialPasswordLinkType()).toBe('invite');

    const signup = await loadWithHash('#access_token=a&refresh_token=r&type=signup');
    expect(signup.initialPasswordLinkType()).toBeNull();
  });

  it('hands out the current access token', async () => {
    const module = await loadWithHash('');
    await expect(module.getAccessToken()).resolves.toBe('jwt-abc');
  });
});

describe('passwordLinkTypeFromHash', () => {
  it('recognises successful recovery and invite links only', () => {
    expect(passwordLinkTypeFromHash('#access_token=x&type=recovery')).toBe('recovery');
    expect(passwordLinkTypeFromHash('access_token=x&type=invite')).toBe('invite');
    expect(passwordLinkTypeFromHash('#access_token=x&type=signup')).toBeNull();
    expect(passwordLinkTypeFromHash('#type=recovery')).toBeNull();
    expect(passwordLinkTypeFromHash('#error=access_denied&error_code=otp_expired&type=recovery')).toBeNull();
    expect(passwordLinkTypeFromHash('')).toBeNull();
  });
});
