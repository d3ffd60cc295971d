// Spec section 2 "Admin: Security Settings", sections 4, 5, 8 and 9, against the real /auth/v1:
// an admin enables two-factor on /admin/mfa with a code computed from the secret on the page, then
// signs in through the code step (a wrong code shows the error; Cancel signs out), and finally
// removes the authenticator again so that other specs find the admin without two-factor.
// The server accepts each TOTP code once, so every successful code comes from a new time step.
import type { Page } from '@playwright/test';
import { adminAccount, expectSignedIn, expectSignedOut, mainNav, signOut, submitSignIn } from './auth-helpers';
import { expect, test } from './fixtures';
import { freshCode, wrongCode } from './totp';

test.describe.configure({ mode: 'serial' });

function twoFactorSection(page: Page) {
  return page.getByRole('region', { name: 'Two-Factor Authentication' });
}

test('an admin enables two-factor, signs in through the code step, and removes it again', async ({ page }) => {
  // Up to four time steps of waiting (30 s each) on top of the browsing.
  test.setTimeout(210_000);
  const admin = adminAccount();
  await page.goto('/');

  // Sign in with the password only: no authenticator yet.
  await submitSignIn(page, admin.email, admin.password);
  await expectSignedIn(page);
  await expect(mainNav(page).getByRole('link', { name: 'Admin' })).toBeVisible();
  await mainNav(page).getByRole('link', { name: 'MFA' }).click();
  await expect(page).toHaveURL(/\/admin\/mfa$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Security Settings' })).toBeVisible();

  const section = twoFactorSection(page);
  await expect(section.getByText('Disabled', { exact: true })).toBeVisible();
  await expect(section.getByRole('listitem')).toHaveCount(4);
  const apps = page.getByRole('region', { name: 'Supported Authenticator Apps' });
  for (const app of ['Google Authenticator', 'Microsoft Authenticator', 'Authy', '1Password']) {
    await expect(apps.getByText(app)).toBeVisible();
  }

  // Set-up: QR code, secret, copy marker, code.
  await section.getByRole('button', { name: 'Enable Two-Factor Authentication' }).click();
  await expect(section.getByRole('img', { name: 'QR code for your authenticator app' })).toBeVisible();
  const secretBox = page.getByTestId('mfa-secret');
  await expect(secretBox).toHaveText(/^[A-Z2-7]{16,}=*$/);
  const secret = (await secretBox.textContent())!.trim();

  await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  await section.getByRole('button', { name: 'Copy' }).click();
  await expect(section.getByText('Copied!')).toBeVisible();
  await expect(section.getByText('Copied!')).toBeHidden({ timeout: 4_000 });

  const enable = section.getByRole('button', { name: 'Enable MFA' });
  const codeField = section.getByLabel(/6-digit code/);
  await codeField.fill('12ab34');
  await expect(codeField).toHaveValue('1234');
  await expect(enable).toBeDisabled();

  const enrolment = await freshCode(secret);
  await codeField.fill(enrolment.code);
  await enable.click();
  await expect(section.getByText('Enabled', { exact: true })).toBeVisible();
  await expect(section.getByRole('button', { name: 'Remove' })).toBeVisible();
  await expect(section.getByText(/^Added \d{1,2} [A-Z][a-z]{2} \d{4}$/)).toBeVisible();

  await signOut(page);

  // Password sign-in now asks for the code.
  const signIn = await submitSignIn(page, admin.email, admin.password);
  const codeStep = page.getByRole('dialog', { name: 'Two-Factor Authentication' });
  await expect(codeStep).toBeVisible();
  const verify = codeStep.getByRole('button', { name: 'Verify' });
  await expect(verify).toBeDisabled();

  // A wrong code shows the server's error and keeps the step open.
  await codeStep.getByLabel('Verification code').fill(wrongCode(secret));
  await verify.click();
  await expect(codeStep.getByRole('alert')).toBeVisible();
  await expect(codeStep).toBeVisible();

  // Cancel signs out and clears the password.
  await codeStep.getByRole('button', { name: 'Cancel' }).click();
  await expect(signIn).toBeVisible();
  await expect(signIn.getByLabel('Password')).toHaveValue('');
  await expect(signIn.getByLabel('Email')).toHaveValue(admin.email);
  await signIn.getByRole('button', { name: 'Close' }).click();
  await expectSignedOut(page);
  // Signed out for real: the admin pages are closed again.
  await page.goto('/admin/mfa');
  await expect(page).toHaveURL(/\/$/);

  // Sign in through the code step with a code from a later time step than the enrolment's.
  await submitSignIn(page, admin.email, admin.password);
  await expect(codeStep).toBeVisible();
  const signInCode = await freshCode(secret, enrolment.step);
  await codeStep.getByLabel('Verification code').fill(signInCode.code);
  await codeStep.getByRole('button', { name: 'Verify' }).click();
  await expectSignedIn(page);
  await expect(mainNav(page).getByRole('link', { name: 'Admin' })).toBeVisible();

  // A reload keeps the second-level session: no code step.
  await page.reload();
  await expectSignedIn(page);

  // Leave the admin as we found it.
  await mainNav(page).getByRole('link', { name: 'MFA' }).click();
  await expect(section.getByText('Enabled', { exact: true })).toBeVisible();
  await section.getByRole('button', { name: 'Remove' }).click();
  const removal = page.getByRole('dialog', { name: 'Remove authenticator' });
  await expect(removal).toContainText('Are you sure you want to disable two-factor authentication? This will make your account less secure.');
  const removalCode = await freshCode(secret, signInCode.step);
  await removal.getByLabel(/Code from your authenticator app/).fill(removalCode.code);
  await removal.getByRole('button', { name: 'Remove authenticator' }).click();
  await expect(section.getByText('Disabled', { exact: true })).toBeVisible();
});
