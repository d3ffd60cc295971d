// The storefront's /auth/v1 driven by @supabase/auth-js, the client the web app and the company's
// apps use: if these pass, the wire protocol (paths, shapes, error codes, headers, JWTs) matches.
import { AuthClient, AuthAdminApi, AuthApiError, AuthWeakPasswordError } from '@supabase/auth-js';
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import { startServer } from './server.mjs';
import { totp } from './totp.mjs';

let server;
let n = 0;
const unique = (name) => `${name}-${Date.now()}-${n++}@example.test`;

function memoryStorage() {
  const items = new Map();
  return {
    getItem: (k) => items.get(k) ?? null,
    setItem: (k, v) => void items.set(k, v),
    removeItem: (k) => void items.delete(k),
  };
}

function client() {
  return new AuthClient({
    url: `${server.url}/auth/v1`,
    storage: memoryStorage(),
    storageKey: 'compat',
    autoRefreshToken: false,
    persistSession: true,
    detectSessionInUrl: false,
  });
}

// Enrols and verifies a TOTP factor on a signed-in client; returns the factor id and secret.
async function enableTotp(auth) {
  const { data: enrolled, error } = await auth.mfa.enroll({ factorType: 'totp', friendlyName: 'phone' });
  assert.equal(error, null);
  const { data: challenge, error: challengeError } = await auth.mfa.challenge({ factorId: enrolled.id });
  assert.equal(challengeError, null);
  const { error: verifyError } = await auth.mfa.verify({
    factorId: enrolled.id,
    challengeId: challenge.id,
    code: totp(enrolled.totp.secret),
  });
  assert.equal(verifyError, null);
  return { factorId: enrolled.id, secret: enrolled.totp.secret };
}

before(async () => {
  server = await startServer();
});

after(async () => {
  await server?.stop();
});

describe('auth-js against /auth/v1', () => {
  test('sign up, getUser, sign out, sign in, wrong password', async () => {
    const auth = client();
    const email = unique('ann');
    const { data, error } = await auth.signUp({ email, password: 'correct horse 1', options: { data: { full_name: 'Ann Example' } } });
    assert.equal(error, null);
    assert.ok(data.session?.access_token);
    assert.equal(data.user.email, email);
    assert.equal(data.user.user_metadata.full_name, 'Ann Example');

    const { data: got } = await auth.getUser();
    assert.equal(got.user.id, data.user.id);

    assert.equal((await auth.signOut()).error, null);
    assert.equal((await auth.getSession()).data.session, null);

    const wrong = await auth.signInWithPassword({ email, password: 'not the password' });
    assert.ok(wrong.error instanceof AuthApiError);
    assert.equal(wrong.error.code, 'invalid_credentials');
    assert.equal(wrong.error.status, 400);

    const unknown = await auth.signInWithPassword({ email: unique('nobody'), password: 'not the password' });
    assert.equal(unknown.error.code, 'invalid_credentials');
    assert.equal(unknown.error.message, wrong.error.message);

    const { data: signedIn, error: signInError } = await auth.signInWithPassword({ email, password: 'correct horse 1' });
    assert.equal(signInError, null);
    assert.equal(signedIn.user.id, data.user.id);
  });

  test('weak passwords are refused with reasons', async () => {
    const auth = client();
    const short = await auth.signUp({ email: unique('weak'), password: 'abc' });
    assert.ok(short.error instanceof AuthWeakPasswordError);
    assert.deepEqual(short.error.reasons, ['length']);
    const common = await auth.signUp({ email: unique('weak'), password: 'password123' });
    assert.ok(common.error instanceof AuthWeakPasswordError);
    assert.deepEqual(common.error.reasons, ['pwned']);
  });

  test('refresh rotates the token; getClaims verifies the ES256 signature with the JWKS', async () => {
    const auth = client();
    const { data } = await auth.signUp({ email: unique('rita'), password: 'refresh me 1' });
    const first = data.session;
    const { data: refreshed, error } = await auth.refreshSession();
    assert.equal(error, null);
    assert.notEqual(refreshed.session.refresh_token, first.refresh_token);
    assert.notEqual(refreshed.session.access_token, first.access_token);

    const { data: claims, error: claimsError } = await auth.getClaims();
    assert.equal(claimsError, null);
    assert.equal(claims.header.alg, 'ES256');
    assert.equal(claims.claims.sub, data.user.id);
    assert.equal(claims.claims.aal, 'aal1');
    assert.equal(claims.claims.role, 'authenticated');
    assert.ok(claims.claims.session_id);
  });

  test('updateUser: metadata and password; a new password ends the other sessions', async () => {
    const email = unique('uma');
    const first = client();
    await first.signUp({ email, password: 'first password 1' });
    const second = client();
    assert.equal((await second.signInWithPassword({ email, password: 'first password 1' })).error, null);

    const { data, error } = await first.updateUser({ data: { full_name: 'Uma Updated' } });
    assert.equal(error, null);
    assert.equal(data.user.user_metadata.full_name, 'Uma Updated');

    // The server checks the current password (GoTrue's secure password change): missing or wrong is a 400.
    assert.equal((await first.updateUser({ password: 'second password 2' })).error?.code, 'current_password_required');
    assert.equal((await first.updateUser({ password: 'second password 2', current_password: 'not it 9' })).error?.code,
      'current_password_invalid');
    assert.equal((await first.updateUser({ password: 'second password 2', current_password: 'first password 1' })).error, null);
    assert.equal((await first.getUser()).error, null);
    const stale = await second.getUser();
    assert.ok(stale.error, 'the other session must be over');

    const again = client();
    assert.equal((await again.signInWithPassword({ email, password: 'first password 1' })).error?.code, 'invalid_credentials');
    assert.equal((await again.signInWithPassword({ email, password: 'second password 2' })).error, null);
  });

  test('MFA: enrol, challenge, verify, assurance level, sign in again at aal1, unenrol', async () => {
    const email = unique('mia');
    const auth = client();
    await auth.signUp({ email, password: 'two factors 1' });

    const { data: enrolled, error } = await auth.mfa.enroll({ factorType: 'totp', friendlyName: 'Mia phone' });
    assert.equal(error, null);
    assert.equal(enrolled.type, 'totp');
    assert.match(enrolled.totp.qr_code, /^data:image\/svg\+xml;utf-8,<svg/);
    assert.match(enrolled.totp.uri, /^otpauth:\/\/totp\/Signalcraft:/);
    assert.match(enrolled.totp.secret, /^[A-Z2-7]{32}$/);

    const { data: challenge } = await auth.mfa.challenge({ factorId: enrolled.id });
    const bad = await auth.mfa.verify({ factorId: enrolled.id, challengeId: challenge.id, code: '000000' === totp(enrolled.totp.secret) ? '111111' : '000000' });
    assert.equal(bad.error?.code, 'mfa_verification_failed');
    const { error: verifyError } = await auth.mfa.verify({ factorId: enrolled.id, challengeId: challenge.id, code: totp(enrolled.totp.secret) });
    assert.equal(verifyError, null);

    const { data: level } = await auth.mfa.getAuthenticatorAssuranceLevel();
    assert.equal(level.currentLevel, 'aal2');
    assert.equal(level.nextLevel, 'aal2');
    assert.ok(level.currentAuthenticationMethods.some((m) => m.method === 'totp'));

    const { data: factors } = await auth.mfa.listFactors();
    assert.equal(factors.totp.length, 1);
    assert.equal(factors.totp[0].status, 'verified');

    const later = client();
    await later.signInWithPassword({ email, password: 'two factors 1' });
    const { data: laterLevel } = await later.mfa.getAuthenticatorAssuranceLevel();
    assert.equal(laterLevel.currentLevel, 'aal1');
    assert.equal(laterLevel.nextLevel, 'aal2');
    const denied = await later.mfa.unenroll({ factorId: enrolled.id });
    assert.equal(denied.error?.code, 'insufficient_aal');

    assert.equal((await auth.mfa.unenroll({ factorId: enrolled.id })).error, null);
    const { data: none } = await auth.mfa.listFactors();
    assert.equal(none.all.length, 0);
  });

  test('admin API: staff admins only, after two-factor; create, list with pagination, get, update, delete', async () => {
    const adminEmail = unique('admin');
    server.createUser(adminEmail, 'admin password 1', { admin: true });
    const auth = client();
    const { data: signedIn, error } = await auth.signInWithPassword({ email: adminEmail, password: 'admin password 1' });
    assert.equal(error, null);
    assert.deepEqual(signedIn.user.app_metadata.roles, ['admin']);

    const before2fa = new AuthAdminApi({ url: `${server.url}/auth/v1`, headers: { Authorization: `Bearer ${signedIn.session.access_token}` } });
    const refused = await before2fa.listUsers();
    assert.equal(refused.error?.code, 'mfa_enrollment_required');

    await enableTotp(auth);
    const { data: sessionData } = await auth.getSession();
    const admin = new AuthAdminApi({ url: `${server.url}/auth/v1`, headers: { Authorization: `Bearer ${sessionData.session.access_token}` } });

    const created = [];
    for (let i = 0; i < 3; i++) {
      const { data, error: createError } = await admin.createUser({ email: unique('made'), password: 'made password 1', email_confirm: true, user_metadata: { full_name: `Made ${i}` } });
      assert.equal(createError, null);
      created.push(data.user);
    }
    const { data: page, error: listError } = await admin.listUsers({ page: 1, perPage: 2 });
    assert.equal(listError, null);
    assert.equal(page.users.length, 2);
    assert.ok(page.total >= 4);
    assert.equal(page.nextPage, 2);
    // auth-js reads only the first digit of each Link page number (`substring(0, 1)`), so its
    // lastPage depends on how many users the shared test database holds: check our header itself.
    const raw = await fetch(`${server.url}/auth/v1/admin/users?page=1&per_page=2`, {
      headers: { Authorization: `Bearer ${sessionData.session.access_token}` },
    });
    const last = /page=(\d+)&per_page=2>; rel="last"/.exec(raw.headers.get('link') ?? '');
    assert.ok(last, raw.headers.get('link'));
    assert.equal(Number(last[1]), Math.ceil(Number(raw.headers.get('x-total-count')) / 2));
    assert.ok(Number(last[1]) >= 2);

    const { data: got } = await admin.getUserById(created[0].id);
    assert.equal(got.user.email, created[0].email);
    const { data: updated, error: updateError } = await admin.updateUserById(created[0].id, { user_metadata: { full_name: 'Renamed' } });
    assert.equal(updateError, null);
    assert.equal(updated.user.user_metadata.full_name, 'Renamed');

    const { data: factors, error: factorsError } = await admin.mfa.listFactors({ userId: created[0].id });
    assert.equal(factorsError, null);
    assert.deepEqual(factors.factors, []);

    assert.equal((await admin.deleteUser(created[1].id)).error, null);
    assert.equal((await admin.getUserById(created[1].id)).error?.status, 404);

    // An ordinary user is not an admin, whatever its token says.
    const plain = client();
    const { data: plainData } = await plain.signInWithPassword({ email: created[2].email, password: 'made password 1' });
    const notAdmin = new AuthAdminApi({ url: `${server.url}/auth/v1`, headers: { Authorization: `Bearer ${plainData.session.access_token}` } });
    assert.equal((await notAdmin.listUsers()).error?.status, 403);
  });

  test('sign-out ends the session: its access token is refused at once', async () => {
    const auth = client();
    const { data } = await auth.signUp({ email: unique('otto'), password: 'sign me out 1' });
    const token = data.session.access_token;
    assert.equal((await auth.getUser(token)).error, null);
    assert.equal((await auth.signOut({ scope: 'local' })).error, null);
    const after = await client().getUser(token);
    assert.ok(after.error);
  });
});
