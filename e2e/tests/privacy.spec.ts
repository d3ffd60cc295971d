// Issue 24, "Privacy: access and closing": a customer downloads their data on Your Data, closes
// their account (password in the confirm dialog) and can no longer sign in; axe on the page and
// on the open dialog.
import { readFile } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import { expectSignedOut, signUp, submitSignIn, uniqueEmail } from './auth-helpers';
import { expectNoSeriousAxeFindings } from './axe';
import { expect, test } from './fixtures';

test('a customer downloads their data, closes their account and cannot sign in again', async ({ page }) => {
  const account = { fullName: 'Hine Privacy', email: uniqueEmail('privacy'), password: 'Kowhai-privacy-2026' };
  await page.goto('/');
  await signUp(page, account);

  await page.goto('/account/privacy');
  await expect(page.getByRole('heading', { level: 1, name: 'Your Data' })).toBeVisible();
  await expect(page).toHaveTitle(/Your Data/);
  await expectNoSeriousAxeFindings(page, '/account/privacy');

  // Download my data: one JSON file named for today, holding the account.
  const downloading = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download my data' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/^storefront-data-\d{4}-\d{2}-\d{2}\.json$/);
  const data = JSON.parse(await readFile(await download.path(), 'utf8')) as {
    profile: { email: string; full_name: string };
    orders: unknown[];
    sign_in_events: { event: string }[];
  };
  expect(data.profile.email).toBe(account.email);
  expect(data.profile.full_name).toBe(account.fullName);
  expect(data.orders).toEqual([]);
  expect(JSON.stringify(data)).not.toContain('argon2');
  await expect(page.getByText(`Your data was saved as ${download.suggestedFilename()}.`)).toBeVisible();

  // Close my account: the dialog says what goes and what stays, and needs the password.
  await page.getByRole('button', { name: 'Close my account' }).click();
  const dialog = page.getByRole('dialog', { name: 'Close your account?' });
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText('seven years');
  await expectNoSeriousAxeFindings(page, 'the Close my account dialog');

  await dialog.getByLabel('Current password').fill('not-my-password');
  await dialog.getByRole('button', { name: 'Close my account' }).click();
  await expect(dialog.getByRole('alert')).toContainText('The password is not correct.');

  await dialog.getByLabel('Current password').fill(account.password);
  await dialog.getByRole('button', { name: 'Close my account' }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('status').filter({ hasText: 'Your account has been closed.' })).toBeVisible();
  await expectSignedOut(page);

  // Signing in now fails exactly as for an address never registered.
  const dialogAfter = await submitSignIn(page, account.email, account.password);
  // The refusal costs a password hash, as a real one would: seconds on a busy machine.
  await expect(dialogAfter.getByRole('alert')).toContainText('Invalid login credentials', { timeout: 15_000 });
});
