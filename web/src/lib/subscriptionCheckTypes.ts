// The subscription-check SDK's constants, messages and types (the SDK is subscriptionCheck.ts,
// which re-exports all of this: import from there). Framework-free like it.

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
