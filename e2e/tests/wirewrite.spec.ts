// WireWrite staff screens against the real server (issue 13): staff creates a promo code; a worker
// redeems it through the API as the companion app would; the users screen shows them as Pro; staff
// downgrades them after the confirmation; the certificates screen searches and sorts. Admin routes
// need two-factor, so the admin enables it first and removes it at the end (as admin-mfa does),
// leaving the admin as the other specs expect.
import type { APIRequestContext } from '@playwright/test';
import { uniqueEmail } from './auth-helpers';
import { expectNoSeriousAxeFindings } from './axe';
import { expect, test } from './fixtures';
import { removeAuthenticator, signInAdminWithTwoFactor } from './staff-helpers';

test.describe.configure({ mode: 'serial' });

/** A worker signed up and signed in through /auth/v1, as the companion app does. */
async function workerSession(request: APIRequestContext, fullName: string) {
  const email = uniqueEmail('worker');
  const password = `Ww-${String(Date.now())}-pass`;
  const signUp = await request.post('/auth/v1/signup', { data: { email, password, data: { full_name: fullName } } });
  expect(signUp.status()).toBe(200);
  const token = await request.post('/auth/v1/token?grant_type=password', { data: { email, password } });
  expect(token.status()).toBe(200);
  const accessToken = ((await token.json()) as { access_token: string }).access_token;
  return { email, headers: { Authorization: `Bearer ${accessToken}` } };
}

test('staff manage WireWrite codes, users and certificates', async ({ page, request }) => {
  test.setTimeout(120_000);
  const code = `E2E${String(Date.now()).slice(-8)}`;
  const workerName = `Tama E2E ${String(Date.now()).slice(-6)}`;

  // Admin routes answer only at the second level: set up two-factor.
  await signInAdminWithTwoFactor(page);

  // The dashboard.
  await page.goto('/admin/wirewrite');
  await expect(page.getByRole('heading', { level: 1, name: 'WireWrite Admin' })).toBeVisible();
  await expect(page.getByText('75+ days without activity')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Open WireWrite App' })).toHaveAttribute('target', '_blank');

  // Staff creates a code (typed in lower case, forced to upper case).
  await page.getByRole('link', { name: 'Promo Codes' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Promo Codes' })).toBeVisible();
  await page.getByRole('button', { name: 'Create Code' }).click();
  const form = page.getByRole('form', { name: 'Create promo code' });
  await form.getByLabel(/^Code/).fill(code.toLowerCase());
  await expect(form.getByLabel(/^Code/)).toHaveValue(code);
  await form.getByLabel(/^Description/).fill('End-to-end three months');
  await form.getByLabel('Duration (months)').fill('3');
  await form.getByLabel('Max Uses').fill('2');
  await form.getByRole('button', { name: 'Create Promo Code' }).click();
  const row = page.getByRole('row').filter({ hasText: code });
  await expect(row).toContainText('3 months');
  await expect(row).toContainText('0 / 2');
  await expect(row).toContainText('Never');
  await expect(row).toContainText('Active');

  // A worker redeems it through the API, in lower case, and writes two certificates.
  const worker = await workerSession(request, workerName);
  const me = await request.get('/api/v1/wirewrite/me', { headers: worker.headers });
  expect(me.status()).toBe(200);
  expect(((await me.json()) as { entitlement: string }).entitlement).toBe('free');
  const redeemed = await request.post('/api/v1/wirewrite/redeem', { headers: worker.headers, data: { code: code.toLowerCase() } });
  expect(redeemed.status()).toBe(200);
  expect(((await redeemed.json()) as { entitlement: string }).entitlement).toBe('pro');
  const first = await request.post('/api/v1/wirewrite/certificates', { headers: worker.headers, data: { site_location: '1 Harbour Road, Napier' } });
  expect(first.status()).toBe(201);
  const firstId = ((await first.json()) as { id: string }).id;
  expect((await request.post(`/api/v1/wirewrite/certificates/${firstId}/issue`, { headers: worker.headers })).status()).toBe(200);
  expect((await request.post('/api/v1/wirewrite/certificates', { headers: worker.headers, data: {} })).status()).toBe(201);

  await page.reload();
  await expect(page.getByRole('row').filter({ hasText: code })).toContainText('1 / 2');

  // The users screen shows them as Pro; staff downgrades them after the confirmation.
  await page.goto('/admin/wirewrite/users');
  await expect(page.getByRole('heading', { level: 1, name: 'Manage Users' })).toBeVisible();
  await expect(page.getByText(/^\(\d+ total users \(\d+ free, \d+ pro\)$/)).toBeVisible();
  await page.getByRole('searchbox', { name: 'Search users' }).fill(workerName);
  const userRow = page.getByRole('row').filter({ hasText: workerName });
  await expect(userRow).toHaveCount(1);
  await expect(userRow).toContainText('Pro');
  await expect(userRow).toContainText(worker.email);
  // Each action button's name starts with its visible text (label-content-name-mismatch).
  await page.getByRole('searchbox', { name: 'Search users' }).fill('');
  await expect(page.getByRole('button', { name: /^(Upgrade to Pro|Downgrade to Free): / }).first()).toBeVisible();
  await expectNoSeriousAxeFindings(page, '/admin/wirewrite/users');
  await page.getByRole('searchbox', { name: 'Search users' }).fill(workerName);
  await expect(userRow).toHaveCount(1);
  await userRow.getByRole('button', { name: `Downgrade to Free: ${workerName}` }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toContainText(`Downgrade ${workerName} to FREE tier?`);
  await expect(dialog).toContainText('This action cannot be undone.');
  await dialog.getByRole('button', { name: 'Downgrade' }).click();
  await expect(page.getByRole('status').filter({ hasText: `Successfully downgraded ${workerName} to Free tier` })).toBeVisible();
  await expect(userRow).toContainText('Free');
  await expect(userRow.getByRole('button', { name: `Upgrade to Pro: ${workerName}` })).toBeVisible();
  const after = await request.get('/api/v1/wirewrite/me', { headers: worker.headers });
  expect(((await after.json()) as { entitlement: string }).entitlement).toBe('free');

  // The certificates screen searches and sorts.
  await page.goto('/admin/wirewrite/certificates');
  await expect(page.getByRole('heading', { level: 1, name: 'All Certificates' })).toBeVisible();
  await page.getByRole('searchbox', { name: 'Search certificates' }).fill(worker.email);
  const rows = page.getByRole('table', { name: 'WireWrite certificates' }).getByRole('row');
  await expect(rows).toHaveCount(3); // header + 2
  await expect(rows.nth(1)).toContainText('Draft'); // newest first: the second, still a draft
  await expect(rows.nth(1)).toContainText('Not specified');
  await expect(rows.nth(1)).toContainText('N/A');
  await expect(rows.nth(2)).toContainText(/WW-\d{4}-\d{6}/);
  await expect(rows.nth(2)).toContainText('1 Harbour Road, Napier');
  await page.getByRole('button', { name: /^Created/ }).click();
  await expect(page.getByRole('columnheader', { name: /Created/ })).toHaveAttribute('aria-sort', 'ascending');
  await expect(rows.nth(1)).toContainText('1 Harbour Road, Napier');
  await page.getByRole('button', { name: /^Status/ }).click();
  await expect(page.getByRole('columnheader', { name: /Status/ })).toHaveAttribute('aria-sort', 'ascending');
  await expect(rows.nth(1)).toContainText('Draft');
  await page.getByRole('button', { name: /^Status/ }).click();
  await expect(page.getByRole('columnheader', { name: /Status/ })).toHaveAttribute('aria-sort', 'descending');
  await expect(rows.nth(1)).toContainText('Issued');
  await page.getByRole('group', { name: 'Filter by status' }).getByRole('button', { name: 'Drafts Only' }).click();
  await expect(rows).toHaveCount(2);
  // The search, filter and sort are in the address: a reload shows the same rows, Back the previous view.
  await expect(page).toHaveURL(/[?&]status=draft(&|$)/);
  await page.reload();
  await expect(page.getByRole('searchbox', { name: 'Search certificates' })).toHaveValue(worker.email);
  await expect(page.getByRole('button', { name: 'Drafts Only' })).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByRole('columnheader', { name: /Status/ })).toHaveAttribute('aria-sort', 'descending');
  await expect(rows).toHaveCount(2);
  await page.goBack();
  await expect(page.getByRole('button', { name: 'All', exact: true })).toHaveAttribute('aria-pressed', 'true');
  await expect(rows).toHaveCount(3);
  await expect(rows.nth(1)).toContainText('Issued');
  await page.goForward();
  await expect(rows).toHaveCount(2);
  await page.getByRole('searchbox', { name: 'Search certificates' }).fill('no such certificate anywhere');
  await expect(page.getByText('No certificates match your filters')).toBeVisible();

  // Leave the admin as we found it: no authenticator.
  await removeAuthenticator(page);
});
