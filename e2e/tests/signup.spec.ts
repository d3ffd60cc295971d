// /signup (issue 33): the landing page with the Create Account form open; creating the account
// there signs the visitor in.
import { expectSignedIn, uniqueEmail } from './auth-helpers';
import { expect, test } from './fixtures';

test('/signup opens the landing page with the Create Account form', async ({ page }) => {
  await page.goto('/signup');
  const dialog = page.getByRole('dialog', { name: 'Create Account' });
  await expect(dialog).toBeVisible();
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await dialog.getByLabel('Full Name').fill('Sina Signup');
  await dialog.getByLabel('Email').fill(uniqueEmail('signup-route'));
  await dialog.getByLabel('Password').fill('signup route 4410');
  await dialog.getByRole('button', { name: 'Create Account' }).click();
  await expectSignedIn(page);
});
