// Issue 24, the account page: a customer changes their name and password on /account (the server
// checks the current password) and signs in with the new one; enrols two-factor on
// /account/security and signs in again through the code step. axe finds no serious or critical
// issue on either page. No page asks /api/v1/enterprise for a customer without an account.
import type { Page } from '@playwright/test';
import { expectSignedIn, mainNav, signOut, signUp, submitSignIn, uniqueEmail } from './auth-helpers';
import { expectNoSeriousAxeFindings } from './axe';
import { expect, test } from './fixtures';
import { freshCode } from './totp';

/** Counts the page's requests to /api/v1/enterprise (a customer without an account must make none). */
function watchEnterpriseCalls(page: Page) {
  const calls: string[] = [];
  page.on('request', (request) => {
    if (new URL(request.url()).pathname === '/api/v1/enterprise') calls.push(request.url());
  });
  return calls;
}

test('a customer changes their name and password on /account, then signs in with the new password', async ({ page }) => {
  const enterpriseCalls = watchEnterpriseCalls(page);
  const account = { fullName: 'Mere Account', email: uniqueEmail('account'), password: 'first pass 4821' };
  await page.goto('/');
  await signUp(page, account);
  await mainNav(page).getByRole('link', { name: 'Account' }).click();
  await expect(page).toHaveURL(/\/account$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Account' })).toBeVisible();
  const name = page.getByRole('textbox', { name: 'Full name' });
  await expect(name).toHaveValue('Mere Account');
  await expectNoSeriousAxeFindings(page, '/account');

  const profile = page.getByRole('region', { name: 'Profile' });
  await name.fill('Mere Account-Smith');
  await profile.getByRole('button', { name: 'Save name' }).click();
  await expect(profile.getByText('Your name has been saved.')).toBeVisible();

  const password = page.getByRole('region', { name: 'Password' });
  await password.getByLabel('Current password').fill('not my password 1');
  await password.getByLabel('New password', { exact: true }).fill('second pass 9174');
  await password.getByLabel('Confirm new password').fill('second pass 9174');
  await password.getByRole('button', { name: 'Change password' }).click();
  await expect(password.getByRole('alert')).toHaveText('Your current password is not right. Nothing was changed.');

  await password.getByLabel('Current password').fill(account.password);
  await password.getByRole('button', { name: 'Change password' }).click();
  await expect(password.getByText('Your password has been changed.', { exact: false })).toBeVisible();

  await signOut(page);
  const refused = await submitSignIn(page, account.email, account.password);
  await expect(refused.getByRole('alert')).toBeVisible();
  await refused.getByLabel('Password').fill('second pass 9174');
  await refused.getByRole('button', { name: 'Sign In' }).click();
  await expectSignedIn(page);
  await page.goto('/account');
  await expect(page.getByRole('textbox', { name: 'Full name' })).toHaveValue('Mere Account-Smith');
  expect(enterpriseCalls).toEqual([]);
});

test('a customer enrols two-factor on /account/security and signs in again with a code', async ({ page }) => {
  // Up to two time steps of waiting (30 s each) on top of the browsing.
  test.setTimeout(120_000);
  const account = { fullName: 'Tane Secure', email: uniqueEmail('security'), password: 'secure pass 5530' };
  await page.goto('/');
  await signUp(page, account);
  await mainNav(page).getByRole('link', { name: 'Account' }).click();
  await page.getByRole('navigation', { name: 'Account' }).getByRole('link', { name: 'Security' }).click();
  await expect(page).toHaveURL(/\/account\/security$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Security' })).toBeVisible();
  const section = page.getByRole('region', { name: 'Two-Factor Authentication' });
  await expect(section.getByText('Disabled', { exact: true })).toBeVisible();
  await expectNoSeriousAxeFindings(page, '/account/security');

  await section.getByRole('button', { name: 'Enable Two-Factor Authentication' }).click();
  const secretBox = page.getByTestId('mfa-secret');
  await expect(secretBox).toHaveText(/^[A-Z2-7]{16,}=*$/);
  const secret = (await secretBox.textContent())!.trim();
  const enrolment = await freshCode(secret);
  await section.getByLabel(/6-digit code/).fill(enrolment.code);
  await section.getByRole('button', { name: 'Enable MFA' }).click();
  await expect(section.getByText('Enabled', { exact: true })).toBeVisible();

  await signOut(page);
  await submitSignIn(page, account.email, account.password);
  const codeStep = page.getByRole('dialog', { name: 'Two-Factor Authentication' });
  await expect(codeStep).toBeVisible();
  const signInCode = await freshCode(secret, enrolment.step);
  await codeStep.getByLabel('Verification code').fill(signInCode.code);
  await codeStep.getByRole('button', { name: 'Verify' }).click();
  await expectSignedIn(page);
  await page.goto('/account/security');
  await expect(page.getByRole('region', { name: 'Two-Factor Authentication' }).getByText('Enabled', { exact: true })).toBeVisible();
});
