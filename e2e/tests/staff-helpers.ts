// Steps shared by the specs that work as staff (staff screens, shipping, customers, WireWrite...): a buyer's paid
// cable order for the order screens, and the admin signed in at the second level (admin routes
// need two-factor: the admin enables an authenticator on /admin/mfa, which steps the session up,
// and removes it again at the end, leaving the admin as the other specs expect).
import type { Browser, Page } from '@playwright/test';
import { adminAccount, expectSignedIn, mainNav, submitSignIn } from './auth-helpers';
import { expectPaymentConfirmed, expectTestCheckoutPage, fillShippingAddress, signUpFreshBuyer } from './commerce-helpers';
import { expect } from './fixtures';
import { freshCode } from './totp';

export const CABLE = { slug: 'usb-rs232-cable', name: 'USB to RS-232 Serial Cable' };

/** A new buyer buys one cable with a New Zealand address, in a browser context of its own; answers the order number. */
export async function buyCable(browser: Browser, label: string): Promise<string> {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    await signUpFreshBuyer(page, label, 'Rangi Parata');
    await page.goto(`/product/${CABLE.slug}`);
    await page.getByRole('link', { name: 'Buy Now' }).click();
    await page.getByRole('button', { name: 'Continue to Payment' }).click();
    await expectTestCheckoutPage(page);
    await fillShippingAddress(page);
    await page.getByRole('button', { name: /^Pay \$/ }).click();
    return await expectPaymentConfirmed(page);
  } finally {
    await context.close();
  }
}

export function twoFactorSection(page: Page) {
  return page.getByRole('region', { name: 'Two-Factor Authentication' });
}

/** The admin's authenticator of this spec run: its secret and the last time step a code was used. */
let adminTwoFactor: { secret: string; step: number } | null = null;

/** Signs the admin in and enables an authenticator (the session is then at aal2). */
export async function signInAdminWithTwoFactor(page: Page): Promise<void> {
  const admin = adminAccount();
  await page.goto('/');
  await submitSignIn(page, admin.email, admin.password);
  await expectSignedIn(page);
  await mainNav(page).getByRole('link', { name: 'MFA' }).click();
  const section = twoFactorSection(page);
  await section.getByRole('button', { name: 'Enable Two-Factor Authentication' }).click();
  const secret = (await page.getByTestId('mfa-secret').textContent())!.trim();
  const enrolment = await freshCode(secret);
  await section.getByLabel(/6-digit code/).fill(enrolment.code);
  await section.getByRole('button', { name: 'Enable MFA' }).click();
  await expect(section.getByText('Enabled', { exact: true })).toBeVisible();
  adminTwoFactor = { secret, step: enrolment.step };
}

/** Removes the admin's authenticator on /admin/mfa, confirming with a code from a later time step. */
export async function removeAuthenticator(page: Page): Promise<void> {
  if (!adminTwoFactor) throw new Error('removeAuthenticator needs signInAdminWithTwoFactor first');
  await page.goto('/admin/mfa');
  const section = twoFactorSection(page);
  await expect(section.getByText('Enabled', { exact: true })).toBeVisible();
  await section.getByRole('button', { name: 'Remove' }).click();
  const removal = page.getByRole('dialog', { name: 'Remove authenticator' });
  const code = await freshCode(adminTwoFactor.secret, adminTwoFactor.step);
  await removal.getByLabel(/Code from your authenticator app/).fill(code.code);
  await removal.getByRole('button', { name: 'Remove authenticator' }).click();
  await expect(section.getByText('Disabled', { exact: true })).toBeVisible();
  adminTwoFactor = null;
}
