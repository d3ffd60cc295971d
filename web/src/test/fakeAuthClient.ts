// A stand-in for src/lib/authClient.ts in every test (installed in setup.ts): the auth-js methods
// the app calls, as vi.fn()s whose default behaviour is a tiny in-memory GoTrue: one account at a
// time, sessions at aal1 or aal2, TOTP factors, and the auth events the library would emit.
// Tests set the scene with `fakeAuth` and override single calls with vi.mocked(...).
import { AuthApiError, type AuthChangeEvent, type AuthError, type Factor, type Session, type User } from '@supabase/auth-js';
import { vi } from 'vitest';
import { AUTH_STORAGE_KEY } from '@/lib/authSession';
import type { PasswordLinkType } from '@/lib/emailLink';

type Listener = (event: AuthChangeEvent, session: Session | null) => void | Promise<void>;

export const FAKE_SECRET = 'JBSWY3DPEHPK3PXP';
export const FAKE_URI = `otpauth://totp/Signalcraft%20Admin:admin@example.test?secret=${FAKE_SECRET}&issuer=Signalcraft%20Admin`;
/** The only code the fake accepts. */
export const VALID_CODE = '123456';

interface FakeState {
  session: Session | null;
  factors: Factor[];
  passwordLinkType: PasswordLinkType | null;
  initializeError: AuthError | null;
  nextFactor: number;
  /** Who signInWithPassword signs in (the email comes from the call). */
  account: UserOptions;
}

function freshState(): FakeState {
  return { session: null, factors: [], passwordLinkType: null, initializeError: null, nextFactor: 1, account: {} };
}

let state = freshState();
const listeners = new Set<Listener>();

function emit(event: AuthChangeEvent, session: Session | null): void {
  for (const listener of [...listeners]) void listener(event, session);
}

interface UserOptions {
  id?: string;
  email?: string;
  fullName?: string;
  roles?: string[];
}

export function makeUser({ id = '0193a000-0000-7000-8000-0000000000aa', email = 'tech@example.co.nz', fullName, roles = [] }: UserOptions = {}): User {
  return {
    id,
    aud: 'authenticated',
    email,
    app_metadata: { provider: 'email', roles },
    user_metadata: fullName ? { full_name: fullName } : {},
    created_at: '2025-10-01T00:00:00Z',
    factors: state.factors,
  };
}

function makeSession(user: User, aal: 'aal1' | 'aal2'): Session {
  return {
    access_token: `token-${user.id}-${aal}`,
    refresh_token: 'refresh',
    expires_in: 3600,
    expires_at: Math.round(Date.now() / 1000) + 3600,
    token_type: 'bearer',
    user: { ...user, factors: [...state.factors] },
  };
}

function aalOf(session: Session | null): 'aal1' | 'aal2' | null {
  if (!session) return null;
  return session.access_token.endsWith('aal2') ? 'aal2' : 'aal1';
}

function verifiedFactors(): Factor[] {
  return state.factors.filter((factor) => factor.status === 'verified');
}

export function makeFactor(overrides: Partial<Factor> = {}): Factor {
  const id = `factor-${String(state.nextFactor++)}`;
  return {
    id,
    friendly_name: 'Signalcraft Admin',
    factor_type: 'totp',
    status: 'verified',
    created_at: '2025-10-02T01:00:00Z',
    updated_at: '2025-10-02T01:00:00Z',
    ...overrides,
  };
}

/** Keeps the stored-session key as the library would, which AuthProvider and apiFetch look at. */
function storeSession(session: Session | null): void {
  state.session = session;
  if (session) window.localStorage.setItem(AUTH_STORAGE_KEY, JSON.stringify(session));
  else window.localStorage.removeItem(AUTH_STORAGE_KEY);
}

function setSession(session: Session | null, event: AuthChangeEvent): void {
  storeSession(session);
  emit(event, session);
}

export const authClient = {
  initialize: vi.fn(() => Promise.resolve({ error: state.initializeError })),
  getSession: vi.fn(() => Promise.resolve({ data: { session: state.session }, error: null })),
  onAuthStateChange: vi.fn((callback: Listener) => {
    listeners.add(callback);
    // Like the library: INITIAL_SESSION once the stored session has been read.
    void Promise.resolve().then(() => {
      if (listeners.has(callback)) void callback('INITIAL_SESSION', state.session);
    });
    return {
      data: { subscription: { id: 'fake', callback, unsubscribe: () => void listeners.delete(callback) } },
    };
  }),
  signInWithPassword: vi.fn(({ email }: { email: string; password: string }) => {
    const session = makeSession(makeUser({ ...state.account, email }), 'aal1');
    setSession(session, 'SIGNED_IN');
    return Promise.resolve({ data: { user: session.user, session }, error: null });
  }),
  signUp: vi.fn(({ email, options }: { email: string; password: string; options?: { data?: { full_name?: string } } }) => {
    const user = makeUser({ email, fullName: options?.data?.full_name ?? '' });
    return Promise.resolve({ data: { user, session: null }, error: null });
  }),
  signOut: vi.fn((options?: { scope?: string }) => {
    // scope 'others' ends the other sessions only: this one stays signed in.
    if (options?.scope !== 'others') setSession(null, 'SIGNED_OUT');
    return Promise.resolve({ error: null });
  }),
  resetPasswordForEmail: vi.fn((_email: string, _options?: { redirectTo?: string }) => Promise.resolve({ data: {}, error: null })),
  updateUser: vi.fn((_attributes: { password?: string }) => {
    const user = state.session?.user ?? null;
    if (user) emit('USER_UPDATED', state.session);
    return Promise.resolve({ data: { user }, error: null });
  }),
  mfa: {
    listFactors: vi.fn(() =>
      Promise.resolve({
        data: {
          all: [...state.factors],
          totp: verifiedFactors().filter((factor) => factor.factor_type === 'totp'),
          phone: [],
          webauthn: [],
        },
        error: null,
      }),
    ),
    getAuthenticatorAssuranceLevel: vi.fn(() => {
      const currentLevel = aalOf(state.session);
      const nextLevel = currentLevel && verifiedFactors().length > 0 ? 'aal2' : currentLevel;
      return Promise.resolve({ data: { currentLevel, nextLevel, currentAuthenticationMethods: [] }, error: null });
    }),
    enroll: vi.fn(({ friendlyName }: { factorType: 'totp'; friendlyName?: string; issuer?: string }) => {
      const factor = makeFactor({ status: 'unverified', friendly_name: friendlyName ?? '' });
      state.factors = [...state.factors, factor];
      return Promise.resolve({
        data: { id: factor.id, type: 'totp', friendly_name: friendlyName, totp: { qr_code: '<svg></svg>', secret: FAKE_SECRET, uri: FAKE_URI } },
        error: null,
      });
    }),
    challenge: vi.fn(({ factorId }: { factorId: string }) =>
      Promise.resolve({ data: { id: `challenge-${factorId}`, type: 'totp', expires_at: Math.round(Date.now() / 1000) + 300 }, error: null }),
    ),
    verify: vi.fn(({ factorId, code }: { factorId: string; challengeId: string; code: string }) => {
      if (code !== VALID_CODE || !state.session) {
        return Promise.resolve({ data: null, error: new AuthApiError('Invalid TOTP code entered', 422, 'mfa_verification_failed') });
      }
      state.factors = state.factors.map((factor) => (factor.id === factorId ? { ...factor, status: 'verified' } : factor));
      const session = makeSession(state.session.user, 'aal2');
      setSession(session, 'MFA_CHALLENGE_VERIFIED');
      return Promise.resolve({ data: session, error: null });
    }),
    unenroll: vi.fn(({ factorId }: { factorId: string }) => {
      state.factors = state.factors.filter((factor) => factor.id !== factorId);
      return Promise.resolve({ data: { id: factorId }, error: null });
    }),
  },
};

export function initialPasswordLinkType(): PasswordLinkType | null {
  return state.passwordLinkType;
}

export function getAccessToken(): Promise<string | null> {
  return Promise.resolve(state.session?.access_token ?? null);
}

function resetMocks(value: object): void {
  for (const member of Object.values(value)) {
    if (vi.isMockFunction(member)) member.mockReset();
    else if (typeof member === 'object' && member !== null) resetMocks(member as object);
  }
}

/** Scene-setting for tests. */
export const fakeAuth = {
  reset(): void {
    state = freshState();
    window.localStorage.removeItem(AUTH_STORAGE_KEY);
    listeners.clear();
    resetMocks(authClient);
  },
  /** A stored session, as if restored at start-up (set before rendering). */
  restoreSession(user: UserOptions = {}, aal: 'aal1' | 'aal2' = 'aal1'): Session {
    const session = makeSession(makeUser(user), aal);
    storeSession(session);
    return session;
  },
  /** Signs in from outside the app (another tab, an email link) and emits `event`. */
  signIn(user: UserOptions = {}, aal: 'aal1' | 'aal2' = 'aal1', event: AuthChangeEvent = 'SIGNED_IN'): Session {
    const session = makeSession(makeUser(user), aal);
    setSession(session, event);
    return session;
  },
  addFactor(overrides: Partial<Factor> = {}): Factor {
    const factor = makeFactor(overrides);
    state.factors = [...state.factors, factor];
    if (state.session) state.session = { ...state.session, user: { ...state.session.user, factors: [...state.factors] } };
    return factor;
  },
  get factors(): Factor[] {
    return state.factors;
  },
  get session(): Session | null {
    return state.session;
  },
  /** The account signInWithPassword signs in to (roles, name, id). */
  setAccount(account: UserOptions): void {
    state.account = account;
  },
  setPasswordLinkType(type: PasswordLinkType | null): void {
    state.passwordLinkType = type;
  },
  setInitializeError(error: AuthError | null): void {
    state.initializeError = error;
  },
  listenerCount(): number {
    return listeners.size;
  },
};
