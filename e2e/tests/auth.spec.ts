// Spec section 2 "Auth modal", sections 4, 5 and 8: create an account, sign out, sign in again,
// and the red box for a wrong password, against the real /auth/v1.
import { expectSignedIn, mainNav, openSignIn, signOut, signUp, submitSignIn, uniqueEmail } from './auth-helpers';
import { expect, test } from './fixtures';

test('create an account, sign out, and sign in again', async ({ page }) => {
  const account = { fullName: 'Aroha Ngata', email: uniqueEmail('aroha'), password: `Pw-${String(Date.now())}-kereru` };
  await page.goto('/');

  await signUp(page, account);
  // Not an admin: no Admin or MFA links.
  await expect(mainNav(page).getByRole('link', { name: 'Admin' })).toHaveCount(0);
  await expect(mainNav(page).getByRole('link', { name: 'MFA' })).toHaveCount(0);

  // The session survives a reload (auth-js keeps it in localStorage).
  await page.reload();
  await expectSignedIn(page);

  await signOut(page);

  await submitSignIn(page, account.email, account.password);
  await expectSignedIn(page);
  await mainNav(page).getByRole('link', { name: 'Dashboard' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);

  // Signing out on a signed-in page goes back to the landing page.
  await signOut(page);
  await expect(page).toHaveURL(/\/$/);
});

test('a wrong password is shown in the red box and the dialog stays open', async ({ page }) => {
  const account = { fullName: 'Mere Walker', email: uniqueEmail('mere'), password: `Pw-${String(Date.now())}-tui` };
  await page.goto('/');
  await signUp(page, account);
  await signOut(page);

  const dialog = await submitSignIn(page, account.email, 'not-the-password');
  await expect(dialog.getByRole('alert')).toBeVisible();
  await expect(dialog.getByRole('alert')).not.toBeEmpty();
  await expect(dialog.getByLabel('Email')).toHaveValue(account.email);
  await expect(mainNav(page).getByRole('button', { name: 'Sign In' })).toBeVisible();
});

test('a visitor sent from checkout gets the sign-in dialog, which validates sign-up fields', async ({ page }) => {
  await page.goto('/checkout/hhtraff');
  await expect(page).toHaveURL(/\/$/);
  const signIn = page.getByRole('dialog', { name: 'Sign In' });
  await expect(signIn).toBeVisible();
  await expect(signIn.getByLabel('Email')).toHaveAttribute('type', 'email');

  await signIn.getByRole('button', { name: 'Create Account' }).click();
  const create = page.getByRole('dialog', { name: 'Create Account' });
  await expect(create.getByLabel('Password')).toHaveAttribute('minlength', '6');
  await create.getByRole('button', { name: 'Close' }).click();
  await expect(page.getByRole('dialog')).toHaveCount(0);

  // Reopening starts at Sign In again.
  await expect(await openSignIn(page)).toBeVisible();
});
