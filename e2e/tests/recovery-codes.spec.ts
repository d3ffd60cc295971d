// Recovery codes (docs/auth.md, "Recovery codes"), against the real /auth/v1: a customer turns on
// two-factor on /account/security, makes ten recovery codes (shown once, with Copy and Download),
// signs in with one at the code step ("Use a recovery code"), finds the count down to nine, and
// is refused when the same code is tried again. Then removes the authenticator with another code.
import { expectSignedIn, expectSignedOut, mainNav, signOut, signUp, submitSignIn, uniqueEmail } from './auth-helpers';
import { expect, test } from './fixtures';
import { freshCode } from './totp';

test('recovery codes: made once, a code signs in once, and the same code is refused again', async ({ page }) => {
  // One time step of waiting (30 s) for the enrolment's code, on top of the browsing.
  test.setTimeout(120_000);
  const account = { fullName: 'Rua Recovery', email: uniqueEmail('recovery'), password: 'recovery pass 7702' };
  await page.goto('/');
  await signUp(page, account);
  await page.goto('/account/security');
  const section = page.getByRole('region', { name: 'Two-Factor Authentication' });
  await section.getByRole('button', { name: 'Enable Two-Factor Authentication' }).click();
  const secret = (await page.getByTestId('mfa-secret').textContent())!.trim();
  const enrolment = await freshCode(secret);
  await section.getByLabel(/6-digit code/).fill(enrolment.code);
  await section.getByRole('button', { name: 'Enable MFA' }).click();
  await expect(section.getByText('Enabled', { exact: true })).toBeVisible();

  // Ten codes, shown once, with Copy and Download.
  await expect(section.getByText('You have no recovery codes yet.')).toBeVisible();
  await section.getByRole('button', { name: 'Generate recovery codes' }).click();
  const shown = page.getByRole('region', { name: 'Your new recovery codes' });
  await expect(shown.getByRole('listitem')).toHaveCount(10);
  const codes = (await shown.getByRole('listitem').allTextContents()).map((code) => code.trim());
  for (const code of codes) expect(code).toMatch(/^[0-9a-z]{5}-[0-9a-z]{5}$/);
  const download = page.waitForEvent('download');
  await shown.getByRole('button', { name: 'Download' }).click();
  expect((await download).suggestedFilename()).toBe('signalcraft-recovery-codes.txt');
  await shown.getByRole('button', { name: 'I have saved my codes' }).click();
  await expect(page.getByText(codes[0]!)).toHaveCount(0);
  await expect(section.getByText('10 of 10 recovery codes left')).toBeVisible();
  await signOut(page);

  // Sign in with a recovery code instead of the app's code.
  await submitSignIn(page, account.email, account.password);
  const codeStep = page.getByRole('dialog', { name: 'Two-Factor Authentication' });
  await expect(codeStep).toBeVisible();
  await codeStep.getByRole('button', { name: 'Use a recovery code' }).click();
  await codeStep.getByLabel('Recovery code').fill(codes[0]!);
  await codeStep.getByRole('button', { name: 'Verify' }).click();
  await expectSignedIn(page);
  await page.goto('/account/security');
  await expect(section.getByText('9 of 10 recovery codes left')).toBeVisible();
  await signOut(page);

  // The same code again: refused like a wrong code, and the step stays open.
  await submitSignIn(page, account.email, account.password);
  await expect(codeStep).toBeVisible();
  await codeStep.getByRole('button', { name: 'Use a recovery code' }).click();
  await codeStep.getByLabel('Recovery code').fill(codes[0]!);
  await codeStep.getByRole('button', { name: 'Verify' }).click();
  await expect(codeStep.getByRole('alert')).toHaveText('Invalid TOTP code entered');
  await expect(codeStep).toBeVisible();

  // Another code works; then it removes the authenticator, confirming with a third code.
  await codeStep.getByLabel('Recovery code').fill(codes[1]!);
  await codeStep.getByRole('button', { name: 'Verify' }).click();
  await expectSignedIn(page);
  await page.goto('/account/security');
  await section.getByRole('button', { name: 'Remove' }).click();
  const removal = page.getByRole('dialog', { name: 'Remove authenticator' });
  await expect(removal).toContainText('Are you sure you want to disable two-factor authentication? This will make your account less secure.');
  await removal.getByLabel(/Code from your authenticator app/).fill(codes[2]!);
  await removal.getByRole('button', { name: 'Remove authenticator' }).click();
  await expect(section.getByText('Disabled', { exact: true })).toBeVisible();
  await expect(mainNav(page)).toBeVisible();
  await signOut(page);
  await expectSignedOut(page);
});
