// Issue 32: one single-line rule for every field that ends up in a mail header, a file name or a
// CSV line. docs/openapi.yaml marks each such request member `x-single-line: true`; this test walks
// the document, sends each marked member a value with CR/LF in it ("Ana\r\nBcc: ..."), and expects
// 422 with a field error naming that member. Every operation with a marked member must have a way
// to be called below (so a newly marked field is tested), and members whose names say they are
// names, companies, emails, carriers, subjects or references must be marked (so a new one is not
// forgotten).
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { after, before, test } from 'node:test';
import { createRequire } from 'node:module';

import { startServer } from '../auth-js/server.mjs';

// js-yaml comes with @redocly/cli.
const require = createRequire(import.meta.url);
const yaml = require('js-yaml');

const documentPath = process.env.OPENAPI_DOCUMENT ?? resolve(import.meta.dirname, '../../../docs/openapi.yaml');
const document = yaml.load(readFileSync(documentPath, 'utf8'));

// The demo rows go into the server's own throwaway SQLite database, never a shared one.
delete process.env.STOREFRONT_TEST_DATABASE;

const password = 'Single-line-9';
const BAD = 'Ana Ngata\r\nBcc: everyone@example.com';
// Request members that, by their name, end up in a mail header, a file name or a CSV line.
const MUST_BE_MARKED = /^(name|full_name|company|company_name|billing_email|carrier|tracking_number|subject|payment_reference|site_location|ewrb_licence_number)$/;

let server;
const tokens = {};
const ids = {};

function deref(schema) {
  let s = schema;
  while (s && s.$ref) s = s.$ref.replace(/^#\//, '').split('/').reduce((node, key) => node[key], document);
  return s;
}

// The request body's top-level members: name -> schema (allOf merged).
function bodyMembers(operation) {
  const schema = deref(operation.requestBody?.content?.['application/json']?.schema);
  const members = {};
  const collect = (s) => {
    const d = deref(s);
    if (!d) return;
    for (const part of d.allOf ?? []) collect(part);
    for (const [name, member] of Object.entries(d.properties ?? {})) members[name] = deref(member);
  };
  collect(schema);
  return members;
}

async function signIn(email) {
  const res = await fetch(`${server.url}/auth/v1/token?grant_type=password`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  assert.equal(res.status, 200, `sign-in of ${email}`);
  return (await res.json()).access_token;
}

async function send(method, path, { token, json, headers = {} } = {}) {
  const init = { method, headers: { 'content-type': 'application/json', ...headers } };
  if (token) init.headers.authorization = `Bearer ${token}`;
  if (json !== undefined) init.body = JSON.stringify(json);
  const res = await fetch(server.url + path, init);
  const text = await res.text();
  let body;
  try {
    body = JSON.parse(text);
  } catch {
    body = text;
  }
  return { status: res.status, body };
}

// How to call each operation with a marked member: its path filled in, who calls, and a body that
// is otherwise valid (the marked member is then replaced by BAD).
function calls() {
  const admin = tokens.admin;
  return {
    'POST /api/v1/contact': { path: '/api/v1/contact', body: { name: 'Ana', email: 'ana@example.com', message: 'Hello' } },
    'POST /functions/v1/send-contact-email': {
      path: '/functions/v1/send-contact-email',
      body: { name: 'Ana', email: 'ana@example.com', message: 'Hello' },
    },
    'POST /api/v1/admin/products': { path: '/api/v1/admin/products', token: admin, body: { name: 'Cable', slug: `single-${randomUUID()}` } },
    'PATCH /api/v1/admin/products/{id}': { path: `/api/v1/admin/products/${ids.product}`, token: admin, body: { name: 'Cable' } },
    'POST /api/v1/admin/products/{id}/plans': {
      path: `/api/v1/admin/products/${ids.product}/plans`,
      token: admin,
      body: { name: 'Monthly', price: '9.00', currency: 'NZD', billing_frequency_value: 1, billing_frequency_unit: 'month' },
    },
    'PATCH /api/v1/admin/plans/{id}': { path: `/api/v1/admin/plans/${ids.plan}`, token: admin, body: { name: 'Yearly' } },
    'POST /api/v1/admin/enterprise-accounts': {
      path: '/api/v1/admin/enterprise-accounts',
      token: admin,
      body: { company_name: 'Waka Ltd', billing_email: 'billing@example.com', admin_email: 'ben@singleline.test', max_licenses: 3 },
    },
    'PATCH /api/v1/admin/enterprise-accounts/{id}': {
      path: `/api/v1/admin/enterprise-accounts/${ids.account}`,
      token: admin,
      body: { company_name: 'Waka Ltd', billing_email: 'billing@example.com' },
    },
    'PATCH /api/v1/admin/orders/{id}': {
      path: `/api/v1/admin/orders/${ids.order}`,
      token: admin,
      // Each marked member in the status it belongs to.
      bodyFor: (member) => (member === 'payment_reference' ? { status: 'paid' } : { status: 'shipped' }),
    },
    'POST /api/v1/admin/orders/{id}/cancel': {
      path: `/api/v1/admin/orders/${ids.order}/cancel`,
      token: admin,
      body: { reason: 'Changed their mind', restock: false },
    },
    'POST /api/v1/admin/orders/{id}/refunds': {
      path: `/api/v1/admin/orders/${ids.order}/refunds`,
      token: admin,
      headers: { 'Idempotency-Key': randomUUID() },
      body: { amount: 1, reason: 'Returned', restock: false },
    },
    'POST /api/v1/admin/subscriptions/{id}/cancel': {
      path: `/api/v1/admin/subscriptions/${ids.subscription}/cancel`,
      token: admin,
      body: { at_period_end: true, reason: 'Asked by phone' },
    },
    'POST /api/v1/admin/subscriptions/{id}/refunds': {
      path: `/api/v1/admin/subscriptions/${ids.subscription}/refunds`,
      token: admin,
      headers: { 'Idempotency-Key': randomUUID() },
      body: { amount: 1, reason: 'Charged twice' },
    },
    'POST /api/v1/admin/orders/bulk-ship': {
      path: '/api/v1/admin/orders/bulk-ship',
      token: admin,
      body: { order_ids: [ids.order], carrier: 'NZ Post' },
    },
    'POST /api/v1/admin/wirewrite/promo-codes': {
      path: '/api/v1/admin/wirewrite/promo-codes',
      token: admin,
      body: { code: `SL${Date.now()}`, description: 'Trade show', duration_months: 1, max_uses: 5, expires_days: 30 },
    },
    'PUT /api/v1/wirewrite/me': { path: '/api/v1/wirewrite/me', token: tokens.worker, body: { full_name: 'Tama', ewrb_licence_number: 'E1' } },
    'POST /api/v1/wirewrite/certificates': { path: '/api/v1/wirewrite/certificates', token: tokens.worker, body: { site_location: '1 Queen St' } },
    'PATCH /api/v1/wirewrite/certificates/{id}': {
      path: `/api/v1/wirewrite/certificates/${ids.certificate}`,
      token: tokens.worker,
      body: { site_location: '2 Queen St' },
    },
  };
}

before(async () => {
  server = await startServer({
    STOREFRONT_DEMO_DATA: 'true',
    STOREFRONT_AUTH_ADMIN_MFA_REQUIRED: 'false',
    STOREFRONT_CONTACT_LIMIT: '1000',
  });
  server.createUser('staff@singleline.test', password, { admin: true });
  server.createUser('tama@singleline.test', password);
  server.createUser('ben@singleline.test', password);
  tokens.admin = await signIn('staff@singleline.test');
  tokens.worker = await signIn('tama@singleline.test');
  const product = await send('POST', '/api/v1/admin/products', {
    token: tokens.admin,
    json: { name: 'Single line app', slug: `single-line-${randomUUID()}`, type: 'subscription' },
  });
  assert.equal(product.status, 201, JSON.stringify(product.body));
  ids.product = product.body.product.id;
  const plan = await send('POST', `/api/v1/admin/products/${ids.product}/plans`, {
    token: tokens.admin,
    json: { name: 'Monthly', price: '9.00', currency: 'NZD', billing_frequency_value: 1, billing_frequency_unit: 'month' },
  });
  assert.equal(plan.status, 201, JSON.stringify(plan.body));
  ids.plan = (plan.body.plan ?? plan.body).id;
  ids.account = (await send('GET', '/api/v1/admin/enterprise-accounts', { token: tokens.admin })).body.items[0].id;
  ids.order = (await send('GET', '/api/v1/admin/orders?status=paid', { token: tokens.admin })).body.items[0].id;
  ids.subscription = (await send('GET', '/api/v1/admin/subscriptions?status=active', { token: tokens.admin })).body.items[0].id;
  const certificate = await send('POST', '/api/v1/wirewrite/certificates', { token: tokens.worker, json: { site_location: '1 Queen St' } });
  assert.equal(certificate.status, 201, JSON.stringify(certificate.body));
  ids.certificate = certificate.body.id;
});

after(async () => {
  await server?.stop();
});

test('every x-single-line member of the document refuses CR/LF with a 422 naming it', async () => {
  const table = calls();
  let checked = 0;
  const unmarked = [];
  for (const [path, item] of Object.entries(document.paths)) {
    for (const method of ['post', 'put', 'patch', 'delete']) {
      const operation = item[method];
      if (!operation?.requestBody) continue;
      const key = `${method.toUpperCase()} ${path}`;
      const members = bodyMembers(operation);
      const marked = Object.entries(members).filter(([, s]) => s?.['x-single-line'] === true).map(([name]) => name);
      for (const name of Object.keys(members))
        if (MUST_BE_MARKED.test(name) && !marked.includes(name)) unmarked.push(`${key} ${name}`);
      if (marked.length === 0) continue;
      const how = table[key];
      assert.ok(how, `${key} has x-single-line members (${marked.join(', ')}) but no call in single_line.test.mjs`);
      for (const name of marked) {
        const body = { ...(how.bodyFor ? how.bodyFor(name) : how.body), [name]: BAD };
        const res = await send(method.toUpperCase(), how.path, { token: how.token, json: body, headers: how.headers });
        assert.equal(res.status, 422, `${key} ${name}: ${JSON.stringify(res.body).slice(0, 300)}`);
        const field = res.body?.fields?.[name];
        assert.ok(typeof field === 'string' && /single line/i.test(field), `${key}: fields.${name} should say it must be a single line: ${JSON.stringify(res.body).slice(0, 300)}`);
        checked++;
      }
    }
  }
  assert.deepEqual(unmarked, [], 'members that reach a mail header, a file name or a CSV line must be marked x-single-line');
  assert.ok(checked >= 19, `only ${checked} marked members were checked`);
  console.log(`single-line members: ${checked} refused CR/LF with a 422 naming them`);
});
