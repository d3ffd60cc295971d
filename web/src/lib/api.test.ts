import { describe, expect, it } from 'vitest';
import { jsonResponse, mockFetch } from '@/test/utils';
import { ApiError, apiFetch } from './api';

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
