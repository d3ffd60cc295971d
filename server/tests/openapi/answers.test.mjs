// Real answers of the built server checked against docs/openapi.yaml, the document integrators
// generate clients from. Each call below goes to a server on a throwaway SQLite database with the
// demo rows (so lists have items); its answer must be one the document lists for that path and
// method (status, media type) and its JSON body must match that response's schema. An answer the
// document does not describe fails the test: fix the document (or report the server's bug).
//
// The validator is openapi-backend (maintained, OpenAPI 3.1): its router matches the request to the
// documented operation and its validator checks the body against the response schema of that
// status, compiled here with Ajv's JSON Schema 2020-12 dialect (the one OpenAPI 3.1 uses).
// openapi-backend passes a status with no schema silently, so the status and media-type checks
// are made here, from the same parsed document.
import Ajv2020Module from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { resolve } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { deflateSync } from 'node:zlib';
import { OpenAPIBackend } from 'openapi-backend';

import { startServer } from '../auth-js/server.mjs';
import { totp } from '../auth-js/totp.mjs';

// CommonJS modules: their default export is the module object.
const Ajv2020 = Ajv2020Module.default ?? Ajv2020Module;
const addFormats = addFormatsModule.default ?? addFormatsModule;

const documentPath = process.env.OPENAPI_DOCUMENT ?? resolve(import.meta.dirname, '../../../docs/openapi.yaml');

// The demo rows go into the server's own throwaway SQLite database, never a shared one.
delete process.env.STOREFRONT_TEST_DATABASE;

let api;
let server;
const tokens = {};
const checked = { operations: new Set(), responses: 0 };

function mediaType(value) {
  return (value ?? '').toLowerCase().replace(/\s+/g, '');
}

// The documented response of an operation for a status: exact, then 1XX..5XX, then default.
function documentedResponse(operation, status) {
  const responses = operation.responses ?? {};
  return responses[String(status)] ?? responses[`${Math.floor(status / 100)}XX`] ?? responses.default;
}

// Calls the server and checks the answer against the document. `expect` is the status this call
// must get (so an error case proves what it claims). Returns {status, body, headers}.
async function call(method, path, { token, json, body, headers = {}, expect } = {}) {
  const init = { method, headers: { ...headers } };
  if (token) init.headers.authorization = `Bearer ${token}`;
  if (json !== undefined) {
    init.headers['content-type'] = 'application/json';
    init.body = JSON.stringify(json);
  } else if (body !== undefined) {
    init.body = body;
  }
  const res = await fetch(server.url + path, init);
  const raw = Buffer.from(await res.arrayBuffer());
  const contentType = res.headers.get('content-type');
  const where = `${method} ${path} -> ${res.status}`;
  let parsed;
  if (contentType?.startsWith('application/json') && raw.length > 0) parsed = JSON.parse(raw.toString('utf8'));

  if (expect !== undefined) assert.equal(res.status, expect, `${where}: expected ${expect}; body ${raw.toString('utf8').slice(0, 300)}`);

  const url = new URL(path, server.url);
  const operation = api.router.matchOperation(
    { method, path: url.pathname, query: Object.fromEntries(url.searchParams), headers: init.headers },
    false,
  );
  if (!operation) {
    // A path or method the document has no operation for (an unknown path's 404, a 405): the
    // answer must still be the server's documented error shape.
    assert.ok(res.status === 404 || res.status === 405, `${where}: the document has no operation for ${method} ${url.pathname}`);
    const validate = errorSchema();
    assert.ok(validate(parsed), `${where}: not the documented Error shape: ${JSON.stringify(validate.errors)}`);
    checked.responses++;
    return { status: res.status, body: parsed, headers: res.headers };
  }

  checked.operations.add(operation.operationId);
  checked.responses++;
  const documented = documentedResponse(operation, res.status);
  assert.ok(documented, `${where}: status ${res.status} is not documented for ${operation.operationId} (${Object.keys(operation.responses).join(', ')})`);

  const content = documented.content;
  if (!content) {
    assert.equal(raw.length, 0, `${where}: a body (${contentType}) where the document describes none`);
  } else {
    const keys = Object.keys(content);
    // A documented media type without parameters matches any parameters (charset); one with
    // parameters must match them all.
    const matched = keys.find((k) => mediaType(k) === mediaType(contentType) || (!k.includes(';') && mediaType(contentType).split(';')[0] === mediaType(k)));
    assert.ok(matched, `${where}: content type ${contentType} is not documented (${keys.join(', ')})`);
    if (matched === 'application/json') {
      assert.notEqual(parsed, undefined, `${where}: an empty body where JSON is documented`);
      const result = api.validator.validateResponse(parsed, operation, res.status);
      assert.ok(result.valid, `${where}: body does not match the ${operation.operationId} ${res.status} schema: ${JSON.stringify(result.errors, null, 1)}\nbody: ${JSON.stringify(parsed).slice(0, 800)}`);
    }
  }
  // A request the server accepted must be one the document allows.
  if (res.status < 300 && json !== undefined) {
    const request = { method, path: url.pathname, query: Object.fromEntries(url.searchParams), headers: init.headers, body: json };
    const result = api.validator.validateRequest(request, operation);
    assert.ok(result.valid, `${where}: the server accepted a request the document refuses: ${JSON.stringify(result.errors)}`);
  }
  return { status: res.status, body: parsed, headers: res.headers };
}

// The document's own validity is the lint's (lint.mjs, Redocly's struct rule, OpenAPI 3.1):
// openapi-backend's own document check knows only the OpenAPI 3.0 schema and would refuse 3.1's
// fields (info.license.identifier). Its router and response validator are what this test uses.
class Backend extends OpenAPIBackend {
  validateDefinition() {
    return this.document;
  }
}

let errorValidator;
function errorSchema() {
  errorValidator ??= newAjv().compile(api.document.components.schemas.Error);
  return errorValidator;
}

function newAjv() {
  const ajv = new Ajv2020({ strict: true, strictTypes: false, allErrors: true });
  addFormats(ajv);
  // OpenAPI 3.1's schema keywords beyond JSON Schema 2020-12 (annotations only).
  ajv.addKeyword('example');
  ajv.addKeyword('discriminator');
  ajv.addKeyword('xml');
  ajv.addKeyword('externalDocs');
  // Ours: a request member held to one line (no CR, LF or other control character; single_line.test.mjs).
  ajv.addKeyword('x-single-line');
  ajv.addFormat('binary', true);
  return ajv;
}

// A 1x1 PNG (an upload the server keeps).
function tinyPng() {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (buf) => {
    let c = 0xffffffff;
    for (const b of buf) c = crcTable[(c ^ b) & 0xff] ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type, data) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type), data]);
    const sum = Buffer.alloc(4);
    sum.writeUInt32BE(crc(body));
    return Buffer.concat([len, body, sum]);
  };
  const ihdr = Buffer.from([0, 0, 0, 1, 0, 0, 0, 1, 8, 2, 0, 0, 0]);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(Buffer.from([0, 255, 0, 0]))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

const password = 'Answers-checked-9';
async function signIn(email) {
  const res = await fetch(`${server.url}/auth/v1/token?grant_type=password`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  assert.equal(res.status, 200, `sign-in of ${email}`);
  return (await res.json()).access_token;
}

before(async () => {
  api = new Backend({
    definition: documentPath,
    strict: true,
    validate: true,
    ignoreTrailingSlashes: false,
    customizeAjv: () => newAjv(),
  });
  await api.init();
  server = await startServer({
    STOREFRONT_DEMO_DATA: 'true',
    STOREFRONT_AUTH_ADMIN_MFA_REQUIRED: 'false',
    STOREFRONT_CONTACT_LIMIT: '3',
  });
  server.createUser('staff@openapi.test', password, { admin: true });
  server.createUser('ann@openapi.test', password);
  server.createUser('ben@openapi.test', password);
  tokens.admin = await signIn('staff@openapi.test');
  tokens.ann = await signIn('ann@openapi.test');
});

after(async () => {
  await server?.stop();
  console.log(`openapi answers: ${checked.responses} responses of ${checked.operations.size} operations checked against the document`);
});

describe('public', () => {
  test('health, metrics, sitemap, robots', async () => {
    await call('GET', '/healthz', { expect: 200 });
    await call('GET', '/metrics', { expect: 200 });
    await call('GET', '/sitemap.xml', { expect: 200 });
    await call('GET', '/robots.txt', { expect: 200 });
  });

  test('catalogue', async () => {
    const { body } = await call('GET', '/api/v1/products', { expect: 200 });
    assert.ok(body.products.length > 0);
    await call('GET', `/api/v1/products/${body.products[0].slug}`, { expect: 200 });
    await call('GET', '/api/v1/products/no-such-product', { expect: 404 });
  });

  test('contact', async () => {
    // The server allows STOREFRONT_CONTACT_LIMIT=3 submissions per address (both paths, valid or
    // not; a body that is not JSON is refused before it counts).
    const enquiry = { name: 'Ann', email: 'ann@example.test', message: 'A quote for 20 seats, please.' };
    await call('POST', '/api/v1/contact', { json: enquiry, expect: 201 });
    await call('POST', '/api/v1/contact', { body: '{"name":', headers: { 'content-type': 'application/json' }, expect: 400 });
    await call('POST', '/api/v1/contact', { body: 'hello', headers: { 'content-type': 'text/plain' }, expect: 415 });
    await call('POST', '/functions/v1/send-contact-email', { body: '[', headers: { 'content-type': 'application/json' }, expect: 400 });
    await call('POST', '/functions/v1/send-contact-email', { json: enquiry, expect: 201 });
    await call('POST', '/api/v1/contact', { json: { name: 'Ann' }, expect: 422 });
    const limited = await call('POST', '/functions/v1/send-contact-email', { json: enquiry, expect: 429 });
    assert.match(limited.headers.get('retry-after'), /^[0-9]+$/);
  });

  test('uploads, webhook, unknown path, wrong method', async () => {
    await call('GET', `/uploads/${'0'.repeat(64)}.png`, { expect: 404 });
    // The local test provider has no Stripe webhook (documented 404).
    await call('POST', '/webhooks/stripe', { json: { id: 'evt_1' }, headers: { 'stripe-signature': 't=1,v1=00' }, expect: 404 });
    await call('GET', '/api/v1/no-such-endpoint', { expect: 404 });
    const wrong = await call('DELETE', '/api/v1/products', { expect: 405 });
    assert.match(wrong.headers.get('allow'), /GET/);
  });
});

describe('signed in', () => {
  test('without a token: 401', async () => {
    await call('GET', '/api/v1/account/dashboard', { expect: 401 });
    await call('GET', '/api/v1/account/me', { expect: 401 });
    await call('GET', '/api/v1/account/orders', { expect: 401 });
    await call('POST', '/functions/v1/validate-subscription', { json: { productSlug: 'x' }, expect: 401 });
    await call('POST', '/functions/v1/create-checkout-session', { json: { productSlug: 'x' }, expect: 401 });
    await call('POST', '/functions/v1/create-portal-session', { json: {}, expect: 401 });
    await call('GET', `/api/v1/account/checkouts/${randomUUID()}`, { expect: 401 });
    await call('GET', '/api/v1/enterprise', { expect: 401 });
    await call('GET', '/api/v1/wirewrite/me', { expect: 401 });
    await call('GET', '/api/v1/admin/stats', { expect: 401 });
    await call('GET', '/api/v1/admin/stats/series', { expect: 401 });
    await call('GET', '/api/v1/admin/orders', { expect: 401 });
    await call('GET', '/api/v1/account/invoices', { expect: 401 });
  });

  test('account, subscriptions, checkout', async () => {
    const token = tokens.ann;
    await call('GET', '/api/v1/account/dashboard', { token, expect: 200 });
    await call('GET', '/api/v1/account/me', { token, expect: 200 });
    await call('GET', '/api/v1/account/orders', { token, expect: 200 });
    await call('GET', '/api/v1/account/orders?page=0', { token, expect: 422 });
    const { body } = await call('GET', '/api/v1/products', {});
    const subscription = body.products.find((p) => p.type === 'subscription');
    await call('POST', '/functions/v1/validate-subscription', { token, json: { productSlug: subscription.slug }, expect: 200 });
    await call('POST', '/functions/v1/validate-subscription', { token, json: { productSlug: 'no-such-product' }, expect: 404 });
    await call('POST', '/functions/v1/create-portal-session', { token, json: {}, expect: 404 });
    const { body: product } = await call('GET', `/api/v1/products/${subscription.slug}`, {});
    const plan = product.product.plans[0];
    const started = await call('POST', '/functions/v1/create-checkout-session', {
      token,
      json: { productSlug: subscription.slug, ...(plan ? { priceId: plan.id } : {}) },
      expect: 200,
    });
    await call('POST', '/functions/v1/create-checkout-session', { token, json: { productSlug: 'no-such-product' }, expect: 404 });
    await call('POST', '/functions/v1/create-checkout-session', { token, json: { productSlug: subscription.slug, amount: 1 }, expect: 422 });
    const id = started.body.checkoutId;
    await call('GET', `/api/v1/account/checkouts/${id}`, { token, expect: 200 });
    await call('POST', `/api/v1/account/checkouts/${id}/cancel`, { token, expect: 200 });
    await call('GET', `/api/v1/account/checkouts/${randomUUID()}`, { token, expect: 404 });
    await call('POST', `/api/v1/account/checkouts/${randomUUID()}/cancel`, { token, expect: 404 });
    // An unpaid order: listed with the way back to its checkout, then cancelled by its customer.
    await call('POST', '/functions/v1/create-checkout-session', {
      token,
      json: { productSlug: subscription.slug, ...(plan ? { priceId: plan.id } : {}) },
      expect: 200,
    });
    const { body: history } = await call('GET', '/api/v1/account/orders', { token, expect: 200 });
    const unpaid = history.items.find((o) => o.checkout_state === 'open');
    assert.ok(unpaid, 'the unpaid order is listed with its open checkout');
    const { body: cancelled } = await call('POST', `/api/v1/account/orders/${unpaid.id}/cancel`, { token, expect: 200 });
    assert.equal(cancelled.status, 'cancelled');
    await call('POST', `/api/v1/account/orders/${randomUUID()}/cancel`, { token, expect: 404 });
    await call('POST', `/api/v1/account/orders/${randomUUID()}/cancel`, { expect: 401 });
    await call('GET', '/api/v1/account/invoices', { token, expect: 200 });
    await call('GET', '/api/v1/account/invoices?page_size=0', { token, expect: 422 });
    await call('GET', '/api/v1/account/invoices/INV-999999', { token, expect: 404 });
  });

  test('recovery codes: the count, refused at aal1, a new set at aal2', async () => {
    await call('GET', '/api/v1/account/recovery-codes', { token: tokens.ann, expect: 200 });
    await call('POST', '/api/v1/account/recovery-codes', { token: tokens.ann, json: {}, expect: 403 });
    // Dora turns two-factor on (GoTrue calls, not in this document) and steps up to aal2.
    server.createUser('dora@openapi.test', password);
    const dora = await signIn('dora@openapi.test');
    const auth = async (path, token, json) => {
      const res = await fetch(`${server.url}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify(json),
      });
      assert.equal(res.status, 200, path);
      return res.json();
    };
    const factor = await auth('/auth/v1/factors', dora, { factor_type: 'totp' });
    const challenge = await auth(`/auth/v1/factors/${factor.id}/challenge`, dora, {});
    const stepped = await auth(`/auth/v1/factors/${factor.id}/verify`, dora, { challenge_id: challenge.id, code: totp(factor.totp.secret) });
    const token = stepped.access_token;
    const { body } = await call('POST', '/api/v1/account/recovery-codes', { token, json: {}, expect: 200 });
    assert.equal(body.codes.length, 10);
    await call('GET', '/api/v1/account/recovery-codes', { token, expect: 200 });
    await call('GET', '/api/v1/account/recovery-codes', { token: dora, expect: 403 });
  });

  test('privacy: download my data, close my account', async () => {
    await call('GET', '/api/v1/account/export', { expect: 401 });
    await call('DELETE', '/api/v1/account', { json: { password }, expect: 401 });
    server.createUser('cara@openapi.test', password);
    const token = await signIn('cara@openapi.test');
    const exported = await call('GET', '/api/v1/account/export', { token, expect: 200 });
    assert.match(exported.headers.get('content-disposition'), /^attachment; filename="storefront-data-[0-9-]+\.json"$/);
    await call('DELETE', '/api/v1/account', { token, json: {}, expect: 422 });
    await call('DELETE', '/api/v1/account', { token, json: { password: 'not-the-password' }, expect: 400 });
    await call('DELETE', '/api/v1/account', { token, body: 'x', headers: { 'content-type': 'text/plain' }, expect: 415 });
    await call('DELETE', '/api/v1/account', { token: tokens.admin, json: { password }, expect: 409 }); // the only staff admin
    await call('DELETE', '/api/v1/account', { token, json: { password }, expect: 204 });
    await call('GET', '/api/v1/account/export', { token, expect: 403 });
  });

  test('a customer on staff and enterprise routes', async () => {
    await call('GET', '/api/v1/admin/stats', { token: tokens.ann, expect: 403 });
    await call('GET', '/api/v1/admin/stats/series', { token: tokens.ann, expect: 403 });
    await call('GET', '/api/v1/admin/audit', { token: tokens.ann, expect: 403 });
    await call('GET', '/api/v1/enterprise', { token: tokens.ann, expect: 404 });
  });

  test('the companion app', async () => {
    const token = tokens.ann;
    await call('GET', '/api/v1/wirewrite/me', { token, expect: 200 });
    await call('PUT', '/api/v1/wirewrite/me', { token, json: { full_name: 'Ann Example', ewrb_licence_number: 'E123' }, expect: 200 });
    await call('PUT', '/api/v1/wirewrite/me', { token, json: { full_name: 'x'.repeat(201) }, expect: 422 });
    const created = await call('POST', '/api/v1/wirewrite/certificates', { token, json: { site_location: '1 Queen St' }, expect: 201 });
    const id = created.body.id;
    await call('GET', '/api/v1/wirewrite/certificates', { token, expect: 200 });
    await call('GET', `/api/v1/wirewrite/certificates/${id}`, { token, expect: 200 });
    await call('PATCH', `/api/v1/wirewrite/certificates/${id}`, { token, json: { site_location: '2 Queen St' }, expect: 200 });
    await call('POST', `/api/v1/wirewrite/certificates/${id}/issue`, { token, expect: 200 });
    await call('POST', `/api/v1/wirewrite/certificates/${id}/issue`, { token, expect: 409 });
    await call('GET', `/api/v1/wirewrite/certificates/${randomUUID()}`, { token, expect: 404 });
    await call('POST', '/api/v1/wirewrite/redeem', { token, json: { code: 'NO-SUCH-CODE' }, expect: 404 });
  });
});

describe('staff', () => {
  test('dashboard, lists and audit', async () => {
    const token = tokens.admin;
    await call('GET', '/api/v1/admin/stats', { token, expect: 200 });
    const series = await call('GET', '/api/v1/admin/stats/series', { token, expect: 200 });
    assert.equal(series.body.orders_by_day.length, 30);
    assert.equal(series.body.revenue_by_month.length, 12);
    await call('GET', '/api/v1/admin/audit', { token, expect: 200 });
    await call('GET', '/api/v1/admin/audit?page_size=0', { token, expect: 422 });
    await call('GET', '/api/v1/admin/subscriptions', { token, expect: 200 });
    await call('GET', '/api/v1/admin/subscriptions?status=bogus', { token, expect: 422 });
    const orders = await call('GET', '/api/v1/admin/orders', { token, expect: 200 });
    assert.ok(orders.body.items.length > 0, 'demo orders');
    await call('GET', '/api/v1/admin/orders?status=paid', { token, expect: 200 });
    const order = orders.body.items[0];
    await call('GET', `/api/v1/admin/orders/${order.id}`, { token, expect: 200 });
    await call('PATCH', `/api/v1/admin/orders/${order.id}`, { token, json: { status: order.status }, expect: 200 });
    await call('PATCH', `/api/v1/admin/orders/${order.id}`, { token, json: { status: 'lost' }, expect: 422 });
    await call('PATCH', `/api/v1/admin/orders/${order.id}`, { token, json: { status: 'completed', carrier: 'NZ Post' }, expect: 422 });
    await call('GET', `/api/v1/admin/orders/${randomUUID()}`, { token, expect: 404 });
    await call('GET', '/api/v1/admin/orders?disputed=true', { token, expect: 200 });
    await call('POST', `/api/v1/admin/orders/${order.id}/refunds`, { token, json: { amount: 0 }, expect: 422 });
    await call('POST', `/api/v1/admin/orders/${randomUUID()}/refunds`, { token, json: { amount: 100 }, expect: 404 });
    await call('GET', '/api/v1/admin/invoices/INV-999999', { token, expect: 404 });
    // The lifecycle: a refused move, and Cancel order's bad input.
    const completed = await call('GET', '/api/v1/admin/orders?status=completed', { token, expect: 200 });
    const done = completed.body.items[0];
    const refused = await call('PATCH', `/api/v1/admin/orders/${done.id}`, { token, json: { status: 'pending' }, expect: 409 });
    assert.equal(refused.body.code, 'invalid_transition');
    assert.deepEqual(refused.body.allowed, []);
    await call('POST', `/api/v1/admin/orders/${done.id}/cancel`, { token, json: { reason: 'Changed their mind', restock: false }, expect: 409 });
    await call('POST', `/api/v1/admin/orders/${done.id}/cancel`, { token, json: { restock: false }, expect: 422 });
    await call('POST', `/api/v1/admin/orders/${randomUUID()}/cancel`, { token, json: { reason: 'Gone', restock: false }, expect: 404 });
    // The accountant's view.
    const register = await call('GET', '/api/v1/admin/invoices?page_size=5', { token, expect: 200 });
    assert.ok(register.body.items.length > 0, 'demo invoices');
    await call('GET', '/api/v1/admin/invoices?kind=credit_note&from=2026-01-01&to=2026-12-31', { token, expect: 200 });
    await call('GET', '/api/v1/admin/invoices?kind=receipt', { token, expect: 422 });
    await call('GET', '/api/v1/admin/reports/gst?from=2026-01-01&to=2026-12-31', { token, expect: 200 });
    await call('GET', '/api/v1/admin/reports/gst?from=2026-12-31&to=2026-01-01', { token, expect: 422 });
  });

  test('bulk shipping, the mail outbox and enquiries', async () => {
    const token = tokens.admin;
    const paid = await call('GET', '/api/v1/admin/orders?status=paid', { token, expect: 200 });
    const ids = [...paid.body.items.slice(0, 1).map((o) => o.id), randomUUID()];
    const shipped = await call('POST', '/api/v1/admin/orders/bulk-ship', { token, json: { order_ids: ids, carrier: 'NZ Post' }, expect: 200 });
    assert.equal(shipped.body.results.length, ids.length);
    await call('POST', '/api/v1/admin/orders/bulk-ship', { token, json: { order_ids: [] }, expect: 422 });
    await call('POST', '/api/v1/admin/orders/bulk-ship', { token, body: 'x', headers: { 'content-type': 'text/plain' }, expect: 415 });

    const failed = await call('GET', '/api/v1/admin/mail?status=failed', { token, expect: 200 });
    assert.ok(failed.body.items.length > 0, 'a demo failed mail');
    await call('GET', '/api/v1/admin/mail?status=stuck', { token, expect: 422 });
    const mailId = failed.body.items[0].id;
    await call('POST', `/api/v1/admin/mail/${mailId}/retry`, { token, expect: 200 });
    await call('POST', `/api/v1/admin/mail/${mailId}/retry`, { token, expect: 409 });
    await call('POST', `/api/v1/admin/mail/${randomUUID()}/retry`, { token, expect: 404 });

    const enquiries = await call('GET', '/api/v1/admin/enquiries?handled=false', { token, expect: 200 });
    assert.ok(enquiries.body.items.length > 0, 'demo enquiries');
    await call('GET', '/api/v1/admin/enquiries?handled=maybe', { token, expect: 422 });
    const enquiryId = enquiries.body.items[0].id;
    await call('PATCH', `/api/v1/admin/enquiries/${enquiryId}`, { token, json: { handled: true }, expect: 200 });
    await call('PATCH', `/api/v1/admin/enquiries/${enquiryId}`, { token, json: {}, expect: 422 });
    await call('PATCH', `/api/v1/admin/enquiries/${randomUUID()}`, { token, json: { handled: true }, expect: 404 });
  });

  test('products, plans and images', async () => {
    const token = tokens.admin;
    await call('GET', '/api/v1/admin/products', { token, expect: 200 });
    const created = await call('POST', '/api/v1/admin/products', {
      token,
      json: { name: 'Answer Checker', slug: 'answer-checker', features: ['one', 'two'], price_nzd: 1999, billing_interval: 'month' },
      expect: 201,
    });
    const id = created.body.product.id;
    await call('POST', '/api/v1/admin/products', { token, json: { name: 'Again', slug: 'answer-checker' }, expect: 409 });
    await call('POST', '/api/v1/admin/products', { token, json: { slug: 'no-name' }, expect: 422 });
    await call('PATCH', `/api/v1/admin/products/${id}`, { token, json: { is_active: false }, expect: 200 });
    await call('PATCH', `/api/v1/admin/products/${randomUUID()}`, { token, json: { is_active: false }, expect: 404 });
    const plan = await call('POST', `/api/v1/admin/products/${id}/plans`, { token, json: { name: 'Monthly', price: '19.99' }, expect: 201 });
    await call('POST', `/api/v1/admin/products/${id}/plans`, { token, json: { name: 'Bad', price: '0.005' }, expect: 422 });
    await call('PATCH', `/api/v1/admin/plans/${plan.body.plan.id}`, { token, json: { sort_order: 2 }, expect: 200 });
    await call('DELETE', `/api/v1/admin/plans/${plan.body.plan.id}`, { token, expect: 204 });
    await call('DELETE', `/api/v1/admin/plans/${randomUUID()}`, { token, expect: 404 });
    await call('DELETE', `/api/v1/admin/products/${id}`, { token, expect: 204 });
    await call('GET', '/api/v1/admin/images', { token, expect: 200 });
    const image = await call('POST', '/api/v1/admin/images', { token, body: tinyPng(), headers: { 'content-type': 'image/png' }, expect: 201 });
    await call('POST', '/api/v1/admin/images', { token, body: '<svg/>', headers: { 'content-type': 'image/png' }, expect: 422 });
    await call('GET', image.body.image.url, { expect: 200 });
  });

  test('enterprise accounts, licences and the team', async () => {
    const token = tokens.admin;
    await call('GET', '/api/v1/admin/enterprise-accounts', { token, expect: 200 });
    const created = await call('POST', '/api/v1/admin/enterprise-accounts', {
      token,
      json: { company_name: 'Answers Ltd', billing_email: 'billing@openapi.test', admin_email: 'ann@openapi.test', max_licenses: 3 },
      expect: 201,
    });
    await call('POST', '/api/v1/admin/enterprise-accounts', { token, json: { company_name: '' }, expect: 422 });
    const id = created.body.account.id;
    await call('GET', `/api/v1/admin/enterprise-accounts/${id}`, { token, expect: 200 });
    await call('GET', `/api/v1/admin/enterprise-accounts/${randomUUID()}`, { token, expect: 404 });
    await call('PATCH', `/api/v1/admin/enterprise-accounts/${id}`, { token, json: { max_licenses: 4 }, expect: 200 });
    const { body } = await call('GET', '/api/v1/products', {});
    const licence = await call('POST', `/api/v1/admin/enterprise-accounts/${id}/licences`, {
      token,
      json: { product_id: body.products[0].id, quantity: 2 },
      expect: 201,
    });
    const licenceId = licence.body.licence.id;
    await call('PATCH', `/api/v1/admin/enterprise-accounts/${id}/licences/${licenceId}`, { token, json: { quantity: 3 }, expect: 200 });
    await call('PATCH', `/api/v1/admin/enterprise-accounts/${id}/licences/${licenceId}`, { token, json: { quantity: -1 }, expect: 422 });

    // Ann administers the account now.
    await call('GET', '/api/v1/enterprise', { token: tokens.ann, expect: 200 });
    const member = await call('POST', '/api/v1/enterprise/members', { token: tokens.ann, json: { email: 'ben@openapi.test' }, expect: 201 });
    await call('POST', '/api/v1/enterprise/members', { token: tokens.ann, json: { email: 'nobody@openapi.test' }, expect: 404 });
    await call('POST', '/api/v1/enterprise/members', { token: tokens.ann, json: { email: 'not an email' }, expect: 422 });
    await call('DELETE', `/api/v1/enterprise/members/${member.body.member.id}`, { token: tokens.ann, expect: 200 });
    await call('DELETE', `/api/v1/admin/enterprise-accounts/${id}/licences/${licenceId}`, { token, expect: 200 });
  });

  test('the companion tool', async () => {
    const token = tokens.admin;
    await call('GET', '/api/v1/admin/wirewrite/stats', { token, expect: 200 });
    await call('GET', '/api/v1/admin/wirewrite/promo-codes', { token, expect: 200 });
    const promo = await call('POST', '/api/v1/admin/wirewrite/promo-codes', {
      token,
      json: { code: 'ANSWERS-1', description: 'checked answers', duration_months: 12, max_uses: 5 },
      expect: 201,
    });
    await call('POST', '/api/v1/admin/wirewrite/promo-codes', { token, json: { code: 'ANSWERS-1', description: 'again' }, expect: 409 });
    await call('POST', '/api/v1/admin/wirewrite/promo-codes', { token, json: { code: 'lower', description: 'x' }, expect: 422 });
    await call('PATCH', `/api/v1/admin/wirewrite/promo-codes/${promo.body.id}`, { token, json: { active: true }, expect: 200 });
    await call('POST', '/api/v1/wirewrite/redeem', { token: tokens.ann, json: { code: 'answers-1' }, expect: 200 });
    await call('POST', '/api/v1/wirewrite/redeem', { token: tokens.ann, json: { code: 'answers-1' }, expect: 409 });
    const workers = await call('GET', '/api/v1/admin/wirewrite/workers?sort=name', { token, expect: 200 });
    await call('GET', '/api/v1/admin/wirewrite/workers?tier=gold', { token, expect: 422 });
    await call('PATCH', `/api/v1/admin/wirewrite/workers/${workers.body.items[0].id}`, { token, json: { entitlement: 'pro' }, expect: 200 });
    await call('PATCH', `/api/v1/admin/wirewrite/workers/${randomUUID()}`, { token, json: { entitlement: 'pro' }, expect: 404 });
    await call('GET', '/api/v1/admin/wirewrite/certificates?status=issued', { token, expect: 200 });
  });

  test('customers and roles', async () => {
    const token = tokens.admin;
    const list = await call('GET', '/api/v1/admin/customers?q=openapi.test&sort=email', { token, expect: 200 });
    await call('GET', '/api/v1/admin/customers?closed=true&two_factor=false&role=admin&unconfirmed=true', { token, expect: 200 });
    await call('GET', '/api/v1/admin/customers?role=staff', { token, expect: 422 });
    const ben = list.body.items.find((item) => item.email === 'ben@openapi.test');
    const path = `/api/v1/admin/customers/${ben.id}`;
    await call('GET', path, { token, expect: 200 });
    await call('GET', `/api/v1/admin/customers/${randomUUID()}`, { token, expect: 404 });
    await call('POST', `${path}/resend-confirmation`, { token, expect: 409 });
    await call('POST', `${path}/send-recovery`, { token, json: {}, expect: 200 });
    await call('POST', `${path}/send-recovery`, { token, json: [], expect: 400 });
    await call('POST', `${path}/send-recovery`, { token, body: 'x', headers: { 'content-type': 'text/plain' }, expect: 415 });
    await call('DELETE', `${path}/factors`, { token, json: {}, expect: 422 });
    await call('DELETE', `${path}/factors`, { token, json: { reason: 'Lost phone' }, expect: 409 });
    await call('PUT', `${path}/roles/admin`, { token, expect: 200 });
    await call('DELETE', `${path}/roles/admin`, { token, expect: 200 });
    await call('GET', '/api/v1/admin/customers', { token: tokens.ann, expect: 403 });
  });

  test('the CSV exports', async () => {
    const token = tokens.admin;
    for (const [path, bad] of [
      ['/api/v1/admin/orders/export.csv?status=paid', '/api/v1/admin/orders/export.csv?status=lost'],
      ['/api/v1/admin/invoices/export.csv?kind=invoice', '/api/v1/admin/invoices/export.csv?from=2026-02-30'],
      ['/api/v1/admin/subscriptions/export.csv?status=active', '/api/v1/admin/subscriptions/export.csv?status=paused'],
      ['/api/v1/admin/customers/export.csv?role=admin&sort=email', '/api/v1/admin/customers/export.csv?closed=maybe'],
      ['/api/v1/admin/wirewrite/workers/export.csv?sort=name', '/api/v1/admin/wirewrite/workers/export.csv?tier=gold'],
      ['/api/v1/admin/wirewrite/certificates/export.csv?status=issued', '/api/v1/admin/wirewrite/certificates/export.csv?sort=site'],
    ]) {
      const ok = await call('GET', path, { token, expect: 200 });
      assert.match(ok.headers.get('content-disposition') ?? '', /^attachment; filename="[a-z-]+-\d{4}-\d{2}-\d{2}\.csv"$/);
      await call('GET', bad, { token, expect: 422 });
      await call('GET', path, { expect: 401 });
    }
  });
});
