import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeAuth } from '@/test/fakeAuthClient';
import { jsonResponse, mockFetch } from '@/test/utils';
import { ApiError, apiFetch, setMfaHandlers } from './api';

function headersOf(init: RequestInit | undefined): Record<string, string> {
  return init?.headers as Record<string, string>;
}

describe('apiFetch', () => {
  it('returns the parsed body and sends JSON', async () => {
    const fetchMock = mockFetch(() => jsonResponse(201, { id: 'abc' }));
    await expect(apiFetch('/api/v1/contact', { method: 'POST', body: { name: 'Ana' } })).resolves.toEqual({ id: 'abc' });
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(url).toBe('/api/v1/contact');
    expect(init?.method).toBe('POST');
    expect(init?.body).toBe('{"name":"Ana"}');
    expect((init?.headers as Record<string, string>)['Content-Type']).toBe('application/json');
  });

  it('sends a raw body (an upload) as it is, with its own Content-Type', async () => {
    const fetchMock = mockFetch(() => jsonResponse(201, { image: { url: '/uploads/a.png' } }));
    const file = new Blob([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], { type: 'image/png' });
    await apiFetch('/api/v1/admin/images', { method: 'POST', rawBody: file });
    const [, init] = fetchMock.mock.calls[0]!;
    expect(init?.body).toBe(file);
    expect((init?.headers as Record<string, string>)['Content-Type']).toBe('image/png');
  });

  it('turns an error body into an ApiError with status, code, message and fields', async () => {
    mockFetch(() =>
      jsonResponse(422, { code: 'validation_failed', message: 'Check the form', fields: { email: 'Enter a valid email address', bad: 3 } }),
    );
    const error = await apiFetch('/api/v1/contact', { method: 'POST', body: {} }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 422, code: 'validation_failed', message: 'Check the form', fields: { email: 'Enter a valid email address' } });
  });

  it('copes with an error that has no JSON body', async () => {
    mockFetch(() => new Response('Bad gateway', { status: 502 }));
    await expect(apiFetch('/api/v1/products')).rejects.toMatchObject({ status: 502, code: 'http_error' });
  });

  it('reports a network failure as status 0', async () => {
    mockFetch(() => Promise.reject(new TypeError('Failed to fetch')));
    await expect(apiFetch('/api/v1/products')).rejects.toMatchObject({ status: 0, code: 'network_error' });
  });
});

describe('apiFetch and the session', () => {
  afterEach(() => setMfaHandlers(null));

  it('sends no Authorization header when signed out', async () => {
    const fetchMock = mockFetch(() => jsonResponse(200, {}));
    await apiFetch('/api/v1/products');
    expect(headersOf(fetchMock.mock.calls[0]![1])).not.toHaveProperty('Authorization');
  });

  it('sends the access token of the current session as a bearer token', async () => {
    const session = fakeAuth.restoreSession();
    const fetchMock = mockFetch(() => jsonResponse(200, {}));
    await apiFetch('/api/v1/account/orders');
    expect(headersOf(fetchMock.mock.calls[0]![1]).Authorization).toBe(`Bearer ${session.access_token}`);
  });

  it('leaves the token out when asked to', async () => {
    fakeAuth.restoreSession();
    const fetchMock = mockFetch(() => jsonResponse(200, {}));
    await apiFetch('/api/v1/products', { auth: false });
    expect(headersOf(fetchMock.mock.calls[0]![1])).not.toHaveProperty('Authorization');
  });

  it('hands 403 mfa_enrollment_required and insufficient_aal to the MFA handlers, and still throws', async () => {
    const handlers = { enrolmentRequired: vi.fn(), codeRequired: vi.fn() };
    setMfaHandlers(handlers);

    mockFetch(() => jsonResponse(403, { code: 'mfa_enrollment_required', message: 'Enrol two-factor authentication first' }));
    await expect(apiFetch('/api/v1/admin/stats')).rejects.toMatchObject({ status: 403, code: 'mfa_enrollment_required' });
    expect(handlers.enrolmentRequired).toHaveBeenCalledTimes(1);
    expect(handlers.codeRequired).not.toHaveBeenCalled();

    mockFetch(() => jsonResponse(403, { code: 'insufficient_aal', message: 'Two-factor verification required' }));
    await expect(apiFetch('/api/v1/admin/stats')).rejects.toMatchObject({ code: 'insufficient_aal' });
    expect(handlers.codeRequired).toHaveBeenCalledTimes(1);

    mockFetch(() => jsonResponse(403, { code: 'forbidden', message: 'Admins only' }));
    await expect(apiFetch('/api/v1/admin/stats')).rejects.toMatchObject({ code: 'forbidden' });
    mockFetch(() => jsonResponse(401, { code: 'insufficient_aal', message: 'x' }));
    await expect(apiFetch('/api/v1/admin/stats')).rejects.toMatchObject({ status: 401 });
    expect(handlers.enrolmentRequired).toHaveBeenCalledTimes(1);
    expect(handlers.codeRequired).toHaveBeenCalledTimes(1);
  });
});
