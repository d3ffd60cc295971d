import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeAuth } from '@/test/fakeAuthClient';
import { jsonResponse, mockFetch } from '@/test/utils';
import { apiFetch } from './api';
import { authAnswerEndsSession } from './authFetch';
import { isSessionEndedAnswer, reportSessionEnded, setSessionEndedHandler } from './sessionEnded';

afterEach(() => {
  setSessionEndedHandler(null);
  vi.unstubAllGlobals();
});

describe('isSessionEndedAnswer', () => {
  it('counts a 401 and a 403 session code on a call that carried the token', () => {
    expect(isSessionEndedAnswer(401, 'no_authorization', true)).toBe(true);
    expect(isSessionEndedAnswer(403, 'session_not_found', true)).toBe(true);
    expect(isSessionEndedAnswer(403, 'bad_jwt', true)).toBe(true);
  });

  it('does not count the two-factor refusals, other 403s, or a call without a token', () => {
    expect(isSessionEndedAnswer(403, 'insufficient_aal', true)).toBe(false);
    expect(isSessionEndedAnswer(403, 'mfa_enrollment_required', true)).toBe(false);
    expect(isSessionEndedAnswer(403, 'not_admin', true)).toBe(false);
    expect(isSessionEndedAnswer(401, 'not_authenticated', false)).toBe(false);
    expect(isSessionEndedAnswer(500, 'internal_error', true)).toBe(false);
  });
});

describe('the report', () => {
  it('reaches the installed handler, and one made before it was installed runs on install', () => {
    const early = vi.fn();
    reportSessionEnded();
    setSessionEndedHandler(early);
    expect(early).toHaveBeenCalledTimes(1);
    reportSessionEnded();
    expect(early).toHaveBeenCalledTimes(2);
  });
});

describe('apiFetch and an ended session', () => {
  it('reports a 403 session_not_found on a signed-in call', async () => {
    fakeAuth.restoreSession({ email: 'ana@example.co.nz' });
    const handler = vi.fn();
    setSessionEndedHandler(handler);
    mockFetch(() => jsonResponse(403, { code: 'session_not_found', message: 'Session from session_id claim in JWT does not exist' }));
    await expect(apiFetch('/api/v1/account/orders')).rejects.toMatchObject({ status: 403, code: 'session_not_found' });
    expect(handler).toHaveBeenCalledTimes(1);
  });

  it('reports a 401 on a signed-in call', async () => {
    fakeAuth.restoreSession({ email: 'ana@example.co.nz' });
    const handler = vi.fn();
    setSessionEndedHandler(handler);
    mockFetch(() => jsonResponse(401, { code: 'not_authenticated', message: 'Sign in to continue.' }));
    await expect(apiFetch('/api/v1/account/orders')).rejects.toMatchObject({ status: 401 });
    expect(handler).toHaveBeenCalledTimes(1);
  });

  it('does not report a 401 of a call sent without a session, nor insufficient_aal', async () => {
    const handler = vi.fn();
    setSessionEndedHandler(handler);
    mockFetch(() => jsonResponse(401, { code: 'not_authenticated', message: 'Sign in to continue.' }));
    await expect(apiFetch('/api/v1/account/orders')).rejects.toMatchObject({ status: 401 });
    fakeAuth.restoreSession({ email: 'ana@example.co.nz' });
    mockFetch(() => jsonResponse(403, { code: 'insufficient_aal', message: 'Enter your two-factor code to continue.' }));
    await expect(apiFetch('/api/v1/account/orders')).rejects.toMatchObject({ status: 403 });
    expect(handler).not.toHaveBeenCalled();
  });
});

describe('authAnswerEndsSession (the auth client fetch)', () => {
  const bearer = { headers: { Authorization: 'Bearer jwt' } };

  it('counts GET /auth/v1/user refused with session_not_found', async () => {
    const response = jsonResponse(403, { code: 'session_not_found', message: 'Session from session_id claim in JWT does not exist' });
    await expect(authAnswerEndsSession('/auth/v1/user', bearer, response)).resolves.toBe(true);
  });

  it('counts a refused refresh of an ended session', async () => {
    const response = jsonResponse(400, { code: 'refresh_token_not_found', message: 'Invalid Refresh Token: Refresh Token Not Found' });
    await expect(authAnswerEndsSession('/auth/v1/token?grant_type=refresh_token', { method: 'POST' }, response)).resolves.toBe(true);
  });

  it('does not count a wrong password, the sign-out call, or a wrong code', async () => {
    const wrongPassword = jsonResponse(400, { code: 'invalid_credentials', message: 'Invalid login credentials' });
    await expect(authAnswerEndsSession('/auth/v1/token?grant_type=password', { method: 'POST' }, wrongPassword)).resolves.toBe(false);
    const unauthorised = jsonResponse(401, { code: 'no_authorization', message: 'This endpoint requires a valid Bearer token' });
    await expect(authAnswerEndsSession('/auth/v1/token?grant_type=password', { method: 'POST' }, unauthorised)).resolves.toBe(false);
    const logout = jsonResponse(403, { code: 'session_not_found', message: 'gone' });
    await expect(authAnswerEndsSession('/auth/v1/logout?scope=local', bearer, logout)).resolves.toBe(false);
    const wrongCode = jsonResponse(400, { code: 'mfa_verification_failed', message: 'Invalid TOTP code entered' });
    await expect(authAnswerEndsSession('/auth/v1/factors/f1/verify', bearer, wrongCode)).resolves.toBe(false);
  });
});
