// The staff customers screen (issue 25) against the real server: a customer signs up and sets up
// an authenticator (through /auth/v1, as the app does); staff find them on /admin/customers, open
// them, make them an admin and take it back, and reset their two-factor with a reason; axe checks
// the list, the detail and each dialog while it is open. Admin routes need two-factor, so the admin
// enables it first and removes it at the end (as the WireWrite spec does).
import type { APIRequestContext } from '@playwright/test';
import { mainNav, uniqueEmail } from './auth-helpers';
import { expectNoSeriousAxeFindings } from './axe';
import { expect, test } from './fixtures';
import { removeAuthenticator, signInAdminWithTwoFactor } from './staff-helpers';
import { freshCode } from './totp';

test.describe.configure({ mode: 'serial' });

/** A customer signed up through /auth/v1 with a verified authenticator. */
async function customerWithAuthenticator(request: APIRequestContext, fullName: string) {
  const email = uniqueEmail('customer');
  const password = `Cu-${String(Date.now())}-pass`;
  expect((await request.post('/auth/v1/signup', { data: { email, password, data: { full_name: fullName } } })).status()).toBe(200);
  const token = await request.post('/auth/v1/token?grant_type=password', { data: { email, password } });
  expect(token.status()).toBe(200);
  const headers = { Authorization: `Bearer ${((await token.json()) as { access_token: string }).access_token}` };
  const enrolled = await request.post('/auth/v1/factors', { headers, data: { factor_type: 'totp', friendly_name: 'Work phone' } });
  expect(enrolled.status()).toBe(200);
  const factor = (await enrolled.json()) as { id: string; totp: { secret: string } };
  const challenge = await request.post(`/auth/v1/factors/${factor.id}/challenge`, { headers, data: {} });
  const { id: challengeId } = (await challenge.json()) as { id: string };
  const { code } = await freshCode(factor.totp.secret);
  expect((await request.post(`/auth/v1/factors/${factor.id}/verify`, { headers, data: { challenge_id: challengeId, code } })).status()).toBe(200);
  return { email };
}

test('staff find a customer, make them an admin and reset their two-factor', async ({ page, request }) => {
  test.setTimeout(150_000);
  const name = `Hine E2E ${String(Date.now()).slice(-6)}`;
  const customer = await customerWithAuthenticator(request, name);

  // Admin routes answer only at the second level: set up two-factor.
  await signInAdminWithTwoFactor(page);

  await test.step('find the customer from the dashboard', async () => {
    await mainNav(page).getByRole('link', { name: 'Admin' }).click();
    await page.getByRole('navigation', { name: 'Quick actions' }).getByRole('link', { name: 'Customers' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Customers' })).toBeVisible();
    const table = page.getByRole('table', { name: 'Customers' });
    await expect(table.getByRole('row').nth(1)).toBeVisible();
    await expectNoSeriousAxeFindings(page, 'customers list');
    await page.getByRole('searchbox', { name: 'Search by email or name' }).fill(name.toLowerCase());
    await expect(page).toHaveURL(/[?&]q=/);
    const rows = table.getByRole('row');
    await expect(rows).toHaveCount(2); // header + the customer
    await expect(rows.nth(1)).toContainText(customer.email);
    await expect(rows.nth(1)).toContainText('Two-factor');
    await page.getByRole('group', { name: 'Show' }).getByRole('button', { name: 'Admins' }).click();
    await expect(page.getByText('No customers match your filters')).toBeVisible();
    await page.getByRole('group', { name: 'Show' }).getByRole('button', { name: 'With two-factor' }).click();
    await rows.nth(1).getByRole('link', { name }).click();
  });

  await test.step('open them: profile, factors and sign-ins', async () => {
    await expect(page.getByRole('heading', { level: 1, name: 'Customer' })).toBeVisible();
    await expect(page.getByRole('region', { name: 'Profile' })).toContainText(customer.email);
    await expect(page.getByRole('region', { name: 'Two-factor authentication' })).toContainText('Work phone');
    await expect(page.getByRole('region', { name: 'Recent sign-in events' })).toContainText('Signed in');
    await expectNoSeriousAxeFindings(page, 'customer detail');
  });

  await test.step('make them an admin, then take it back', async () => {
    await page.getByRole('button', { name: 'Make admin' }).click();
    const dialog = page.getByRole('dialog', { name: 'Make admin' });
    await expect(dialog).toContainText(`Give ${name} the admin role?`);
    await expectNoSeriousAxeFindings(page, 'make admin dialog');
    await dialog.getByRole('button', { name: 'Make admin' }).click();
    await expect(page.getByText(`${name} is now an admin.`)).toBeVisible();
    await expect(page.getByRole('region', { name: 'Profile' })).toContainText('Admin since');
    await page.getByRole('button', { name: 'Remove admin role' }).click();
    await page.getByRole('dialog', { name: 'Remove admin role' }).getByRole('button', { name: 'Remove admin role' }).click();
    await expect(page.getByText(`${name} is no longer an admin.`)).toBeVisible();
    await expect(page.getByRole('button', { name: 'Make admin' })).toBeVisible();
  });

  await test.step('reset their two-factor with a reason', async () => {
    await page.getByRole('button', { name: 'Reset two-factor' }).click();
    const dialog = page.getByRole('dialog', { name: 'Reset two-factor authentication' });
    await dialog.getByRole('button', { name: 'Reset two-factor' }).click();
    await expect(dialog.getByText('Give the reason for resetting two-factor authentication.')).toBeVisible();
    await expectNoSeriousAxeFindings(page, 'reset two-factor dialog');
    await dialog.getByRole('textbox', { name: /Reason/ }).fill('Lost their phone; identity checked by a video call');
    await dialog.getByRole('button', { name: 'Reset two-factor' }).click();
    await expect(page.getByText(`Two-factor authentication of ${name} is reset.`)).toBeVisible();
    await expect(page.getByRole('region', { name: 'Two-factor authentication' })).toContainText('No authenticator set up.');
  });

  await test.step('the audit log has each change', async () => {
    await page.goto('/admin/audit');
    await expect(page.getByRole('heading', { level: 1, name: 'Audit Log' })).toBeVisible();
    const log = page.getByRole('table', { name: 'Audit log' });
    for (const action of ['mfa_factors_reset', 'role_revoked', 'role_granted']) await expect(log.getByText(action).first()).toBeVisible();
  });

  // Leave the admin as we found it: no authenticator.
  await removeAuthenticator(page);
});
