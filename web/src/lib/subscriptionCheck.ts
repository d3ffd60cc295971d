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
//
// Its constants, messages and types are in subscriptionCheckTypes.ts (re-exported here), its
// private helpers in subscriptionCheckHelpers.ts; callers import this module only.

import { isRecord, errorText, defaultStorage, defaultRedirect, tokenSubject, readValidation, type PostOutcome, failureMessage } from './subscriptionCheckHelpers';
import {
  DAY_MS,
  OFFLINE_GRACE_MS,
  DEFAULT_TIMEOUT_MS,
  CACHE_KEY_PREFIX,
  VALIDATE_PATH,
  CHECKOUT_PATH,
  PORTAL_PATH,
  SUBSCRIPTION_MESSAGES,
  validationFailedMessage,
  onlineRequiredMessage,
  checkoutFailedMessage,
  portalFailedMessage,
  redirectFailedMessage,
  type SubscriptionValidation,
  type SubscriptionCheckOptions,
  type CheckoutSession,
  type CheckoutOptions,
  type PortalOptions,
  type SubscriptionCheck,
} from './subscriptionCheckTypes';

export * from './subscriptionCheckTypes';

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
