// The subscription-check SDK (spec section 4 "Subscription validation cache", section 7
// "Subscriptions and payment", section 8 "Subscription checks"; contract in docs/billing.md).
//
// Framework-free on purpose: no React, nothing from the app or its features, only `fetch` and a
// localStorage-like storage, so the company's other apps can use the same module. Everything that
// touches the outside world is injected (base URL, access token, storage, clock, redirect, fetch).
//
// Decisions:
// - Where 'Validation failed: <message>' surfaces: a failed online check never throws. The result
//   it returns (cached, or 'Online validation required...') carries the reason in `error`:
//   'Validation failed: <server or network message>' for a failed request or a non-2xx answer,
//   'Unable to validate subscription' for a 2xx answer whose body is unusable (not JSON, or no
//   boolean `valid` / string `status`). `message` stays the result's own message. So every text
//   of spec section 8 reaches the caller: as `message` ('User not authenticated', 'Online
//   validation required', 'Online validation required (last checked N days ago)') or as `error`.
// - Offline grace: the cached answer is used while `now - lastCheckAt <= 7 days` (inclusive: at
//   exactly 7 x 24 h it still answers; 1 ms later it does not). "N days ago" is whole 24-hour
//   periods, rounded down. A cache entry dated in the future (the device clock went back) is not
//   trusted: the result is 'Online validation required'.
// - The cache is per product and per signed-in person: the key holds the access token's `sub`
//   claim (read, not verified: it only partitions the cache), so one person's cached Pro answer
//   never answers for the next person on the same device. A token that is not a JWT shares one
//   partition per product.
// - Every successful server answer is cached, including "no subscription": offline, the last
//   known truth answers, never an older, better one.
// - A signed-out caller gets 'User not authenticated' without the cache being consulted.
// - Starting a checkout drops the product's cached answer: after a checkout the expected status
//   is active, so the next answer must come from the server, not from the pre-purchase cache.

/** Offline grace for a cached validation (spec section 9). */
export const OFFLINE_GRACE_DAYS = 7;
export const DAY_MS = 24 * 60 * 60 * 1000;
export const OFFLINE_GRACE_MS = OFFLINE_GRACE_DAYS * DAY_MS;

/** How long a request may take before it counts as failed (the caller may be offline). */
export const DEFAULT_TIMEOUT_MS = 15_000;

/** Prefix of the storage keys this module writes. */
export const CACHE_KEY_PREFIX = 'storefront.subscription-validation.v1';

export const VALIDATE_PATH = '/functions/v1/validate-subscription';
export const CHECKOUT_PATH = '/functions/v1/create-checkout-session';
export const PORTAL_PATH = '/functions/v1/create-portal-session';

/**
 * The fixed texts of spec section 8 ("Subscription checks"; the others are built below), plus our
 * own two transport failures (networkError, timedOut), which are not spec copy.
 */
export const SUBSCRIPTION_MESSAGES = {
  notAuthenticated: 'User not authenticated',
  unableToValidate: 'Unable to validate subscription',
  onlineRequired: 'Online validation required',
  noSessionId: 'No session ID returned from checkout creation',
  noPortalUrl: 'No URL returned from portal creation',
  stripeFailedToLoad: 'Stripe failed to load',
  networkError: 'The server could not be reached.',
  timedOut: 'The request timed out.',
} as const;

export const validationFailedMessage = (message: string) => `Validation failed: ${message}`;
export const onlineRequiredMessage = (days: number) =>
  `${SUBSCRIPTION_MESSAGES.onlineRequired} (last checked ${String(days)} days ago)`;
export const checkoutFailedMessage = (message: string) => `Failed to create checkout session: ${message}`;
export const portalFailedMessage = (message: string) => `Failed to create portal session: ${message}`;
export const redirectFailedMessage = (message: string) => `Stripe redirect failed: ${message}`;

/** Server statuses (docs/billing.md) plus the two this module produces ('none' when signed out). */
export type SubscriptionStatus =
  | 'none'
  | 'active'
  | 'trial'
  | 'expired'
  | 'pending'
  | 'cancelled'
  | 'requires_online_check'
  | (string & {});

/** The subscription validation result (spec section 3). */
export interface SubscriptionValidation {
  /** Access granted. A failed check is always false unless a cached answer within grace says true. */
  valid: boolean;
  status: SubscriptionStatus;
  message: string;
  /** Period end, ISO-8601 UTC, or null. */
  expiresAt: string | null;
  /** Whole days left, rounded up; 0 when none or past. */
  daysRemaining: number;
  /** When the server gave this answer (ISO-8601); present on every answer that came from it. */
  lastCheckAt?: string;
  /** True when the online check failed and this is the cached answer. */
  fromCache?: boolean;
  /** Why the online check failed: 'Validation failed: ...' or 'Unable to validate subscription'. */
  error?: string;
}

/** The parts of `Storage` this module uses (window.localStorage fits). */
export interface KeyValueStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

export interface SubscriptionCheckOptions {
  /** Origin (and optional prefix) of the server; '' (default) means this site. */
  baseUrl?: string;
  /** The signed-in person's access token, or null when signed out. */
  getAccessToken: () => string | null | Promise<string | null>;
  /** Cache storage; default window.localStorage when present, else no caching. */
  storage?: KeyValueStorage | null;
  /** Milliseconds since the epoch; default Date.now. */
  now?: () => number;
  /** Leaves the page for the provider; default window.location.assign. */
  redirect?: (url: string) => void | Promise<void>;
  /** Default globalThis.fetch. */
  fetch?: typeof fetch;
  /** Per request; default 15 s. */
  timeoutMs?: number;
}

export interface CheckoutSession {
  sessionId: string;
  url: string;
  /** Our checkout id (docs/billing.md); absent from servers that do not send it. */
  checkoutId?: string;
}

export interface CheckoutOptions {
  /** Path on this site to return to after payment or cancel (server default: /dashboard). */
  returnPath?: string;
}

export interface PortalOptions {
  /** Path on this site the portal links back to (server default: /dashboard). */
  returnPath?: string;
}

export interface SubscriptionCheck {
  /** Never throws: a failure gives a result with `valid: false` (or the cached answer in grace). */
  validateSubscription(productSlug: string): Promise<SubscriptionValidation>;
  /** Creates the hosted checkout and leaves for it. Throws Error with a spec section 8 message. */
  createCheckoutSession(priceId: string, productSlug: string, options?: CheckoutOptions): Promise<CheckoutSession>;
  /** Creates a billing-portal session and leaves for it. Throws Error with a spec section 8 message. */
  createPortalSession(options?: PortalOptions): Promise<{ url: string }>;
  /** The cached answer for the product (for the signed-in person), without any request. */
  getCachedValidation(productSlug: string): Promise<SubscriptionValidation | null>;
  /** Forgets the cached answer for the product (for the signed-in person). */
  clearCachedValidation(productSlug: string): Promise<void>;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function errorText(error: unknown): string {
  if (error instanceof Error && error.message) return error.message;
  if (typeof error === 'string' && error) return error;
  return 'Unknown error';
}

function defaultStorage(): KeyValueStorage | null {
  try {
    return typeof window !== 'undefined' ? window.localStorage : null;
  } catch {
    // Storage can be blocked (privacy settings, sandboxed frames): run without a cache.
    return null;
  }
}

function defaultRedirect(url: string): void {
  if (typeof window === 'undefined') throw new Error('No browser window to redirect');
  window.location.assign(url);
}

/** The `sub` claim of a JWT, unverified; null when the token is not a readable JWT. */
function tokenSubject(token: string): string | null {
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
function readValidation(body: unknown): SubscriptionValidation | null {
  if (!isRecord(body) || typeof body.valid !== 'boolean' || typeof body.status !== 'string') return null;
  return {
    valid: body.valid,
    status: body.status,
    message: typeof body.message === 'string' ? body.message : '',
    expiresAt: typeof body.expiresAt === 'string' ? body.expiresAt : null,
    daysRemaining: typeof body.daysRemaining === 'number' && Number.isFinite(body.daysRemaining) ? body.daysRemaining : 0,
  };
}

type PostOutcome = { ok: true; body: unknown } | { ok: false; message: string };

/** The error message of a failed answer: `message` ({code, message}), else `error` or `msg`. */
function failureMessage(status: number, body: unknown): string {
  if (isRecord(body)) {
    for (const key of ['message', 'error', 'msg'] as const) {
      const value = body[key];
      if (typeof value === 'string' && value) return value;
    }
  }
  return `Request failed with status ${String(status)}`;
}

export function createSubscriptionCheck(options: SubscriptionCheckOptions): SubscriptionCheck {
  const baseUrl = (options.baseUrl ?? '').replace(/\/+$/, '');
  const storage = options.storage === undefined ? defaultStorage() : options.storage;
  const now = options.now ?? (() => Date.now());
  const redirect = options.redirect ?? defaultRedirect;
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const doFetch: typeof fetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));

  async function post(path: string, token: string, body: unknown): Promise<PostOutcome> {
    // The only abort is the timeout's, so an aborted signal means the request took too long.
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), timeoutMs);
    try {
      let response: Response;
      try {
        response = await doFetch(`${baseUrl}${path}`, {
          method: 'POST',
          headers: { Accept: 'application/json', 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
          body: JSON.stringify(body),
          signal: controller.signal,
        });
      } catch {
        return { ok: false, message: controller.signal.aborted ? SUBSCRIPTION_MESSAGES.timedOut : SUBSCRIPTION_MESSAGES.networkError };
      }
      let parsed: unknown = null;
      try {
        const text = await response.text();
        parsed = text ? (JSON.parse(text) as unknown) : null;
      } catch {
        // A body that is not JSON: an error keeps its status text, a success is judged by the caller.
        if (controller.signal.aborted) return { ok: false, message: SUBSCRIPTION_MESSAGES.timedOut };
        parsed = null;
      }
      if (!response.ok) return { ok: false, message: failureMessage(response.status, parsed) };
      return { ok: true, body: parsed };
    } finally {
      clearTimeout(timer);
    }
  }

  function cacheKey(token: string, productSlug: string): string {
    const subject = tokenSubject(token) ?? '-';
    return `${CACHE_KEY_PREFIX}:${encodeURIComponent(subject)}:${encodeURIComponent(productSlug)}`;
  }

  function readCache(key: string): SubscriptionValidation | null {
    if (!storage) return null;
    try {
      const raw = storage.getItem(key);
      if (!raw) return null;
      const parsed: unknown = JSON.parse(raw);
      const result = readValidation(parsed);
      if (!result || !isRecord(parsed) || typeof parsed.lastCheckAt !== 'string') return null;
      if (Number.isNaN(Date.parse(parsed.lastCheckAt))) return null;
      return { ...result, lastCheckAt: parsed.lastCheckAt };
    } catch {
      return null;
    }
  }

  function writeCache(key: string, result: SubscriptionValidation): void {
    try {
      storage?.setItem(key, JSON.stringify(result));
    } catch {
      // Storage full or blocked: the answer is still returned, just not kept for offline use.
    }
  }

  function removeCache(key: string): void {
    try {
      storage?.removeItem(key);
    } catch {
      // Nothing to do: a storage that cannot be written holds nothing of ours either.
    }
  }

  /** The answer when the online check failed: the cached one within grace, else none. */
  function offlineAnswer(key: string, error: string): SubscriptionValidation {
    const cached = readCache(key);
    if (!cached?.lastCheckAt) {
      return { valid: false, status: 'requires_online_check', message: SUBSCRIPTION_MESSAGES.onlineRequired, expiresAt: null, daysRemaining: 0, error };
    }
    const age = now() - Date.parse(cached.lastCheckAt);
    if (age < 0) {
      return { valid: false, status: 'requires_online_check', message: SUBSCRIPTION_MESSAGES.onlineRequired, expiresAt: null, daysRemaining: 0, error };
    }
    if (age <= OFFLINE_GRACE_MS) return { ...cached, fromCache: true, error };
    return {
      valid: false,
      status: 'requires_online_check',
      message: onlineRequiredMessage(Math.floor(age / DAY_MS)),
      expiresAt: null,
      daysRemaining: 0,
      lastCheckAt: cached.lastCheckAt,
      error,
    };
  }

  async function validateSubscription(productSlug: string): Promise<SubscriptionValidation> {
    const token = await options.getAccessToken();
    if (!token) {
      return { valid: false, status: 'none', message: SUBSCRIPTION_MESSAGES.notAuthenticated, expiresAt: null, daysRemaining: 0 };
    }
    const key = cacheKey(token, productSlug);
    const outcome = await post(VALIDATE_PATH, token, { productSlug });
    if (!outcome.ok) return offlineAnswer(key, validationFailedMessage(outcome.message));
    const answer = readValidation(outcome.body);
    if (!answer) return offlineAnswer(key, SUBSCRIPTION_MESSAGES.unableToValidate);
    const result: SubscriptionValidation = { ...answer, lastCheckAt: new Date(now()).toISOString() };
    writeCache(key, result);
    return result;
  }

  async function leaveFor(url: string): Promise<void> {
    try {
      await redirect(url);
    } catch (error) {
      throw new Error(redirectFailedMessage(errorText(error)), { cause: error });
    }
  }

  async function createCheckoutSession(priceId: string, productSlug: string, checkoutOptions: CheckoutOptions = {}): Promise<CheckoutSession> {
    const token = await options.getAccessToken();
    if (!token) throw new Error(checkoutFailedMessage(SUBSCRIPTION_MESSAGES.notAuthenticated));
    const body: Record<string, string> = { priceId, productSlug };
    if (checkoutOptions.returnPath) body.returnPath = checkoutOptions.returnPath;
    const outcome = await post(CHECKOUT_PATH, token, body);
    if (!outcome.ok) throw new Error(checkoutFailedMessage(outcome.message));
    const answer = isRecord(outcome.body) ? outcome.body : {};
    if (typeof answer.sessionId !== 'string' || !answer.sessionId) throw new Error(SUBSCRIPTION_MESSAGES.noSessionId);
    if (typeof answer.url !== 'string' || !answer.url) throw new Error(SUBSCRIPTION_MESSAGES.stripeFailedToLoad);
    const session: CheckoutSession = { sessionId: answer.sessionId, url: answer.url };
    if (typeof answer.checkoutId === 'string') session.checkoutId = answer.checkoutId;
    // The state is about to change (expected: active): the next answer must come from the server.
    removeCache(cacheKey(token, productSlug));
    await leaveFor(session.url);
    return session;
  }

  async function createPortalSession(portalOptions: PortalOptions = {}): Promise<{ url: string }> {
    const token = await options.getAccessToken();
    if (!token) throw new Error(portalFailedMessage(SUBSCRIPTION_MESSAGES.notAuthenticated));
    const outcome = await post(PORTAL_PATH, token, portalOptions.returnPath ? { returnPath: portalOptions.returnPath } : {});
    if (!outcome.ok) throw new Error(portalFailedMessage(outcome.message));
    const url = isRecord(outcome.body) ? outcome.body.url : undefined;
    if (typeof url !== 'string' || !url) throw new Error(SUBSCRIPTION_MESSAGES.noPortalUrl);
    await leaveFor(url);
    return { url };
  }

  async function getCachedValidation(productSlug: string): Promise<SubscriptionValidation | null> {
    const token = await options.getAccessToken();
    return token ? readCache(cacheKey(token, productSlug)) : null;
  }

  async function clearCachedValidation(productSlug: string): Promise<void> {
    const token = await options.getAccessToken();
    if (token) removeCache(cacheKey(token, productSlug));
  }

  return { validateSubscription, createCheckoutSession, createPortalSession, getCachedValidation, clearCachedValidation };
}
