import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  CACHE_KEY_PREFIX,
  createSubscriptionCheck,
  OFFLINE_GRACE_DAYS,
  OFFLINE_GRACE_MS,
  type KeyValueStorage,
  type SubscriptionCheckOptions,
} from './subscriptionCheck';

const T0 = Date.parse('2025-10-10T00:00:00.000Z');

// Spec literals, not the module's constants, so that changing a constant fails these tests.
const DAY_MS = 24 * 60 * 60 * 1000;
/** Spec section 9: offline grace for cached subscription validation, 7 days. */
const SEVEN_DAYS_MS = 7 * DAY_MS;

class MemoryStorage implements KeyValueStorage {
  readonly items = new Map<string, string>();
  getItem(key: string) {
    return this.items.get(key) ?? null;
  }
  setItem(key: string, value: string) {
    this.items.set(key, value);
  }
  removeItem(key: string) {
    this.items.delete(key);
  }
}

function jwt(sub: string): string {
  const encode = (value: object) => btoa(JSON.stringify(value)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
  return `${encode({ alg: 'ES256', typ: 'JWT' })}.${encode({ sub, aal: 'aal1' })}.signature`;
}

function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

const ACTIVE = { valid: true, status: 'active', expiresAt: '2025-11-10T00:00:00Z', daysRemaining: 31, message: 'Subscription active' };
const NONE = { valid: false, status: 'none', expiresAt: null, daysRemaining: 0, message: 'No subscription found' };

type Handler = (url: string, init: RequestInit) => Response | Promise<Response>;

function setup(overrides: Partial<SubscriptionCheckOptions> = {}, handler: Handler = () => json(200, ACTIVE)) {
  const storage = new MemoryStorage();
  let token: string | null = jwt('user-a');
  const fetchMock = vi.fn((input: string, init?: RequestInit) => Promise.resolve(handler(input, init ?? {})));
  const redirect = vi.fn<(url: string) => void>();
  const client = createSubscriptionCheck({
    getAccessToken: () => token,
    storage,
    now: () => Date.now(),
    redirect,
    fetch: fetchMock as unknown as typeof fetch,
    ...overrides,
  });
  return {
    client,
    storage,
    fetchMock,
    redirect,
    setToken(value: string | null) {
      token = value;
    },
    setHandler(next: Handler) {
      handler = next;
    },
  };
}

function bodyOf(init: RequestInit | undefined): unknown {
  return JSON.parse(init?.body as string);
}

function headersOf(init: RequestInit | undefined): Record<string, string> {
  return init?.headers as Record<string, string>;
}

beforeEach(() => {
  vi.useFakeTimers();
  vi.setSystemTime(T0);
});

afterEach(() => {
  vi.useRealTimers();
});

describe('constants', () => {
  it('gives a 7-day offline grace', () => {
    expect(OFFLINE_GRACE_DAYS).toBe(7);
    expect(OFFLINE_GRACE_MS).toBe(7 * 24 * 60 * 60 * 1000);
  });
});

describe('validateSubscription', () => {
  it("answers 'User not authenticated' (status none) without a request when signed out", async () => {
    const { client, fetchMock, setToken } = setup();
    setToken(null);
    await expect(client.validateSubscription('wirewrite')).resolves.toEqual({
      valid: false,
      status: 'none',
      message: 'User not authenticated',
      expiresAt: null,
      daysRemaining: 0,
    });
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('posts {productSlug} with the bearer token to the base URL and returns the answer with lastCheckAt', async () => {
    const { client, fetchMock } = setup({ baseUrl: 'https://shop.example.test/' });
    const result = await client.validateSubscription('wirewrite');
    expect(result).toEqual({ ...ACTIVE, lastCheckAt: '2025-10-10T00:00:00.000Z' });
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(url).toBe('https://shop.example.test/functions/v1/validate-subscription');
    expect(init?.method).toBe('POST');
    expect(bodyOf(init)).toEqual({ productSlug: 'wirewrite' });
    expect(headersOf(init).Authorization).toBe(`Bearer ${jwt('user-a')}`);
    expect(headersOf(init)['Content-Type']).toBe('application/json');
  });

  it('uses a relative path by default', async () => {
    const { client, fetchMock } = setup();
    await client.validateSubscription('wirewrite');
    expect(fetchMock.mock.calls[0]![0]).toBe('/functions/v1/validate-subscription');
  });

  it('caches every server answer per product with lastCheckAt, including "no subscription"', async () => {
    const { client, storage } = setup({}, (_url, init) => json(200, (bodyOf(init) as { productSlug: string }).productSlug === 'wirewrite' ? ACTIVE : NONE));
    await client.validateSubscription('wirewrite');
    await client.validateSubscription('hhtraff');
    expect(storage.items.size).toBe(2);
    await expect(client.getCachedValidation('wirewrite')).resolves.toEqual({ ...ACTIVE, lastCheckAt: '2025-10-10T00:00:00.000Z' });
    await expect(client.getCachedValidation('hhtraff')).resolves.toEqual({ ...NONE, lastCheckAt: '2025-10-10T00:00:00.000Z' });
    for (const key of storage.items.keys()) expect(key.startsWith(`${CACHE_KEY_PREFIX}:`)).toBe(true);
  });

  it("gives 'Online validation required' with the reason 'Validation failed: <server message>' when the server fails and nothing is cached", async () => {
    const { client } = setup({}, () => json(500, { code: 'internal_error', message: 'Database unavailable' }));
    await expect(client.validateSubscription('wirewrite')).resolves.toEqual({
      valid: false,
      status: 'requires_online_check',
      message: 'Online validation required',
      expiresAt: null,
      daysRemaining: 0,
      error: 'Validation failed: Database unavailable',
    });
  });

  it('reports a network failure as Validation failed', async () => {
    const { client } = setup({}, () => Promise.reject(new TypeError('Failed to fetch')));
    const result = await client.validateSubscription('wirewrite');
    expect(result).toMatchObject({ valid: false, status: 'requires_online_check', error: 'Validation failed: The server could not be reached.' });
  });

  it('reports an error body without a message by its status, and reads {error} bodies', async () => {
    const first = setup({}, () => new Response('<html>Bad gateway</html>', { status: 502 }));
    expect((await first.client.validateSubscription('wirewrite')).error).toBe('Validation failed: Request failed with status 502');
    const second = setup({}, () => json(404, { error: 'Product not found' }));
    expect((await second.client.validateSubscription('wirewrite')).error).toBe('Validation failed: Product not found');
  });

  it('times out a request that never answers', async () => {
    const { client } = setup({ timeoutMs: 5000 }, (_url, init) =>
      new Promise<Response>((_resolve, reject) => {
        init.signal?.addEventListener('abort', () => reject(new DOMException('Aborted', 'AbortError')));
      }),
    );
    const pending = client.validateSubscription('wirewrite');
    await vi.advanceTimersByTimeAsync(5000);
    await expect(pending).resolves.toMatchObject({ valid: false, message: 'Online validation required', error: 'Validation failed: The request timed out.' });
  });

  it.each([
    ['a body that is not JSON', () => new Response('<!doctype html><html></html>', { status: 200 })],
    ['an empty body', () => new Response('', { status: 200 })],
    ['a body without valid', () => json(200, { status: 'active', message: 'Subscription active' })],
    ['a body without status', () => json(200, { valid: true })],
    ['a JSON array', () => json(200, [ACTIVE])],
  ])("treats %s as 'Unable to validate subscription' (no access, nothing cached)", async (_name, respond) => {
    const { client, storage } = setup({}, respond);
    await expect(client.validateSubscription('wirewrite')).resolves.toEqual({
      valid: false,
      status: 'requires_online_check',
      message: 'Online validation required',
      expiresAt: null,
      daysRemaining: 0,
      error: 'Unable to validate subscription',
    });
    expect(storage.items.size).toBe(0);
  });

  it('fills in missing optional members of a usable answer', async () => {
    const { client } = setup({}, () => json(200, { valid: false, status: 'pending' }));
    await expect(client.validateSubscription('wirewrite')).resolves.toEqual({
      valid: false,
      status: 'pending',
      message: '',
      expiresAt: null,
      daysRemaining: 0,
      lastCheckAt: '2025-10-10T00:00:00.000Z',
    });
  });

  describe('offline grace', () => {
    async function cachedThenFailing(ageMs: number) {
      const harness = setup();
      await harness.client.validateSubscription('wirewrite');
      harness.setHandler(() => json(503, { code: 'unavailable', message: 'Service unavailable' }));
      vi.setSystemTime(T0 + ageMs);
      return { ...harness, result: await harness.client.validateSubscription('wirewrite') };
    }

    it('answers from the cache just inside 7 days, with the failure reason', async () => {
      const { result } = await cachedThenFailing(SEVEN_DAYS_MS - 1);
      expect(result).toEqual({
        ...ACTIVE,
        lastCheckAt: '2025-10-10T00:00:00.000Z',
        fromCache: true,
        error: 'Validation failed: Service unavailable',
      });
    });

    it('still answers from the cache at exactly 7 days (inclusive boundary)', async () => {
      const { result } = await cachedThenFailing(SEVEN_DAYS_MS);
      expect(result).toMatchObject({ valid: true, status: 'active', fromCache: true });
    });

    it('demands an online check just past 7 days, saying how many whole days ago', async () => {
      const { result } = await cachedThenFailing(SEVEN_DAYS_MS + 1);
      expect(result).toEqual({
        valid: false,
        status: 'requires_online_check',
        message: 'Online validation required (last checked 7 days ago)',
        expiresAt: null,
        daysRemaining: 0,
        lastCheckAt: '2025-10-10T00:00:00.000Z',
        error: 'Validation failed: Service unavailable',
      });
    });

    it('rounds the days down', async () => {
      const { result } = await cachedThenFailing(12 * DAY_MS - 1);
      expect(result.message).toBe('Online validation required (last checked 11 days ago)');
    });

    it('answers from the cache right after a check and one day later', async () => {
      expect((await cachedThenFailing(0)).result.fromCache).toBe(true);
      expect((await cachedThenFailing(DAY_MS)).result.fromCache).toBe(true);
    });

    it('does not trust a cache entry dated in the future (clock moved back)', async () => {
      const { result } = await cachedThenFailing(-DAY_MS);
      expect(result).toMatchObject({ valid: false, status: 'requires_online_check', message: 'Online validation required' });
    });

    it('keeps the cached answer (and its lastCheckAt) while offline, and a new online answer replaces it', async () => {
      const harness = await cachedThenFailing(3 * DAY_MS);
      await expect(harness.client.getCachedValidation('wirewrite')).resolves.toMatchObject({ lastCheckAt: '2025-10-10T00:00:00.000Z' });
      harness.setHandler(() => json(200, NONE));
      const fresh = await harness.client.validateSubscription('wirewrite');
      expect(fresh).toEqual({ ...NONE, lastCheckAt: '2025-10-13T00:00:00.000Z' });
      await expect(harness.client.getCachedValidation('wirewrite')).resolves.toEqual(fresh);
    });

    it('answers from the cache when the server sends an unusable body', async () => {
      const harness = setup();
      await harness.client.validateSubscription('wirewrite');
      harness.setHandler(() => new Response('oops', { status: 200 }));
      await expect(harness.client.validateSubscription('wirewrite')).resolves.toMatchObject({
        valid: true,
        fromCache: true,
        error: 'Unable to validate subscription',
      });
    });

    it("never answers one product's check from another product's cache", async () => {
      const harness = setup();
      await harness.client.validateSubscription('wirewrite');
      harness.setHandler(() => Promise.reject(new TypeError('offline')));
      await expect(harness.client.validateSubscription('hhtraff')).resolves.toMatchObject({
        valid: false,
        status: 'requires_online_check',
        message: 'Online validation required',
      });
      await expect(harness.client.validateSubscription('wirewrite')).resolves.toMatchObject({ valid: true, fromCache: true });
    });

    it("never answers one person's check from another person's cache on the same device", async () => {
      const harness = setup();
      await harness.client.validateSubscription('wirewrite');
      harness.setToken(jwt('user-b'));
      harness.setHandler(() => Promise.reject(new TypeError('offline')));
      await expect(harness.client.validateSubscription('wirewrite')).resolves.toMatchObject({ valid: false, message: 'Online validation required' });
      harness.setToken(jwt('user-a'));
      await expect(harness.client.validateSubscription('wirewrite')).resolves.toMatchObject({ valid: true, fromCache: true });
    });

    it('ignores a corrupt cache entry', async () => {
      const harness = setup({}, () => Promise.reject(new TypeError('offline')));
      await harness.client.validateSubscription('wirewrite');
      const key = `${CACHE_KEY_PREFIX}:user-a:wirewrite`;
      harness.storage.setItem(key, '{not json');
      await expect(harness.client.validateSubscription('wirewrite')).resolves.toMatchObject({ message: 'Online validation required' });
      harness.storage.setItem(key, JSON.stringify({ ...ACTIVE, lastCheckAt: 'yesterday' }));
      await expect(harness.client.validateSubscription('wirewrite')).resolves.toMatchObject({ message: 'Online validation required' });
    });

    it('does not consult the cache when signed out', async () => {
      const harness = setup();
      await harness.client.validateSubscription('wirewrite');
      harness.setToken(null);
      await expect(harness.client.validateSubscription('wirewrite')).resolves.toMatchObject({ valid: false, message: 'User not authenticated' });
    });
  });

  it('works without any storage, and survives a storage that throws', async () => {
    const none = setup({ storage: null });
    await expect(none.client.validateSubscription('wirewrite')).resolves.toMatchObject({ valid: true });
    const broken: KeyValueStorage = {
      getItem: () => {
        throw new Error('denied');
      },
      setItem: () => {
        throw new Error('quota');
      },
      removeItem: () => {
        throw new Error('denied');
      },
    };
    const throwing = setup({ storage: broken });
    await expect(throwing.client.validateSubscription('wirewrite')).resolves.toMatchObject({ valid: true });
    throwing.setHandler(() => json(500, {}));
    await expect(throwing.client.validateSubscription('wirewrite')).resolves.toMatchObject({ valid: false, message: 'Online validation required' });
  });

  it('uses window.localStorage and the injected clock by default', async () => {
    window.localStorage.clear();
    const fetchMock = vi.fn(() => Promise.resolve(json(200, ACTIVE)));
    const client = createSubscriptionCheck({
      getAccessToken: () => Promise.resolve(jwt('user-c')),
      now: () => Date.parse('2030-01-01T00:00:00Z'),
      fetch: fetchMock,
    });
    await expect(client.validateSubscription('wirewrite')).resolves.toMatchObject({ lastCheckAt: '2030-01-01T00:00:00.000Z' });
    expect(window.localStorage.getItem(`${CACHE_KEY_PREFIX}:user-c:wirewrite`)).toContain('"lastCheckAt":"2030-01-01T00:00:00.000Z"');
    window.localStorage.clear();
  });
});

describe('createCheckoutSession', () => {
  const session = { sessionId: 'cs_test_123', url: 'https://checkout.example.test/pay/cs_test_123', checkoutId: 'chk-1' };

  it('posts {priceId, productSlug}, then redirects to the returned url', async () => {
    const { client, fetchMock, redirect } = setup({}, () => json(200, session));
    await expect(client.createCheckoutSession('plan-1', 'wirewrite')).resolves.toEqual(session);
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(url).toBe('/functions/v1/create-checkout-session');
    expect(bodyOf(init)).toEqual({ priceId: 'plan-1', productSlug: 'wirewrite' });
    expect(headersOf(init).Authorization).toBe(`Bearer ${jwt('user-a')}`);
    expect(redirect).toHaveBeenCalledWith(session.url);
  });

  it('passes a return path when given', async () => {
    const { client, fetchMock } = setup({}, () => json(200, session));
    await client.createCheckoutSession('plan-1', 'wirewrite', { returnPath: '/test-subscription' });
    expect(bodyOf(fetchMock.mock.calls[0]![1])).toEqual({ priceId: 'plan-1', productSlug: 'wirewrite', returnPath: '/test-subscription' });
  });

  it("drops the product's cached answer before leaving: after a checkout the expected status is active", async () => {
    const harness = setup();
    await harness.client.validateSubscription('wirewrite');
    await harness.client.validateSubscription('hhtraff');
    harness.setHandler(() => json(200, session));
    await harness.client.createCheckoutSession('plan-1', 'wirewrite');
    await expect(harness.client.getCachedValidation('wirewrite')).resolves.toBeNull();
    await expect(harness.client.getCachedValidation('hhtraff')).resolves.not.toBeNull();
  });

  it("fails with 'Failed to create checkout session: <message>'", async () => {
    const { client, redirect } = setup({}, () => json(409, { code: 'already_subscribed', message: 'You already have an active subscription to WireWrite.' }));
    await expect(client.createCheckoutSession('plan-1', 'wirewrite')).rejects.toThrow(
      'Failed to create checkout session: You already have an active subscription to WireWrite.',
    );
    expect(redirect).not.toHaveBeenCalled();
  });

  it('fails on a network error and when signed out', async () => {
    const offline = setup({}, () => Promise.reject(new TypeError('Failed to fetch')));
    await expect(offline.client.createCheckoutSession('plan-1', 'wirewrite')).rejects.toThrow(
      'Failed to create checkout session: The server could not be reached.',
    );
    const signedOut = setup();
    signedOut.setToken(null);
    await expect(signedOut.client.createCheckoutSession('plan-1', 'wirewrite')).rejects.toThrow(
      'Failed to create checkout session: User not authenticated',
    );
    expect(signedOut.fetchMock).not.toHaveBeenCalled();
  });

  it.each([
    ['no sessionId', { url: session.url }],
    ['an empty body', null],
    ['a body that is not an object', 'cs_test_123'],
  ])("fails with 'No session ID returned from checkout creation' for %s", async (_name, body) => {
    const { client, redirect } = setup({}, () => json(200, body));
    await expect(client.createCheckoutSession('plan-1', 'wirewrite')).rejects.toThrow('No session ID returned from checkout creation');
    expect(redirect).not.toHaveBeenCalled();
  });

  it("fails with 'Stripe failed to load' when there is no url to go to", async () => {
    const { client, redirect } = setup({}, () => json(200, { sessionId: 'cs_test_123' }));
    await expect(client.createCheckoutSession('plan-1', 'wirewrite')).rejects.toThrow('Stripe failed to load');
    expect(redirect).not.toHaveBeenCalled();
  });

  it("fails with 'Stripe redirect failed: <message>' when the redirect throws", async () => {
    const { client } = setup({ redirect: () => Promise.reject(new Error('Navigation blocked')) }, () => json(200, session));
    await expect(client.createCheckoutSession('plan-1', 'wirewrite')).rejects.toThrow('Stripe redirect failed: Navigation blocked');
  });
});

describe('createPortalSession', () => {
  it('posts to create-portal-session and redirects to the url', async () => {
    const { client, fetchMock, redirect } = setup({}, () => json(200, { url: 'https://billing.example.test/p/1' }));
    await expect(client.createPortalSession()).resolves.toEqual({ url: 'https://billing.example.test/p/1' });
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(url).toBe('/functions/v1/create-portal-session');
    expect(bodyOf(init)).toEqual({});
    expect(redirect).toHaveBeenCalledWith('https://billing.example.test/p/1');
  });

  it('passes a return path when given', async () => {
    const { client, fetchMock } = setup({}, () => json(200, { url: 'https://billing.example.test/p/1' }));
    await client.createPortalSession({ returnPath: '/test-subscription' });
    expect(bodyOf(fetchMock.mock.calls[0]![1])).toEqual({ returnPath: '/test-subscription' });
  });

  it("fails with 'Failed to create portal session: <message>'", async () => {
    const { client } = setup({}, () => json(404, { code: 'no_billing_account', message: 'You have no billing account yet.' }));
    await expect(client.createPortalSession()).rejects.toThrow('Failed to create portal session: You have no billing account yet.');
  });

  it("fails with 'No URL returned from portal creation'", async () => {
    const { client, redirect } = setup({}, () => json(200, {}));
    await expect(client.createPortalSession()).rejects.toThrow('No URL returned from portal creation');
    expect(redirect).not.toHaveBeenCalled();
  });

  it('fails when signed out without a request', async () => {
    const harness = setup();
    harness.setToken(null);
    await expect(harness.client.createPortalSession()).rejects.toThrow('Failed to create portal session: User not authenticated');
    expect(harness.fetchMock).not.toHaveBeenCalled();
  });

  it('reports a failing redirect', async () => {
    const { client } = setup(
      {
        redirect: () => {
          throw new Error('blocked');
        },
      },
      () => json(200, { url: 'https://billing.example.test/p/1' }),
    );
    await expect(client.createPortalSession()).rejects.toThrow('Stripe redirect failed: blocked');
  });
});
