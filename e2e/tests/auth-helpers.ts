// Steps shared by the authentication specs, driven the way a person would: the header's Sign In
// button, the dialog's labelled fields and buttons.
import { expect, type Page } from '@playwright/test';
import { currentServer } from '../spec-servers';

export function mainNav(page: Page) {
  return page.getByRole('navigation', { name: 'Main' });
}

/** A new address for every call, so that specs never collide with earlier runs or each other. */
export function uniqueEmail(label: string): string {
  return `${label}+${String(Date.now())}-${Math.random().toString(36).slice(2, 8)}@example.test`;
}

/** The admin account global-setup.ts created on this worker's server with `storefront users create --admin`. */
export function adminAccount(): { email: string; password: string } {
  const { adminEmail, adminPassword } = currentServer();
  return { email: adminEmail, password: adminPassword };
}

export async function openSignIn(page: Page) {
  await mainNav(page).getByRole('button', { name: 'Sign In' }).click();
  const dialog = page.getByRole('dialog', { name: 'Sign In' });
  await expect(dialog).toBeVisible();
  return dialog;
}

/** Fills and submits Sign In; the caller checks what follows (signed in, code step or error). */
export async function submitSignIn(page: Page, email: string, password: string) {
  const dialog = await openSignIn(page);
  await dialog.getByLabel('Email').fill(email);
  await dialog.getByLabel('Password').fill(password);
  await dialog.getByRole('button', { name: 'Sign In' }).click();
  return dialog;
}

export async function expectSignedIn(page: Page) {
  // A sign-in hashes the password (argon2id): on a busy 2-core machine it can take seconds.
  await expect(page.getByRole('dialog')).toHaveCount(0, { timeout: 15_000 });
  await expect(mainNav(page).getByRole('button', { name: 'Sign Out' })).toBeVisible();
  await expect(mainNav(page).getByRole('link', { name: 'Dashboard' })).toBeVisible();
  await expect(mainNav(page).getByRole('link', { name: 'Test Subscription' })).toBeVisible();
}

export async function expectSignedOut(page: Page) {
  await expect(mainNav(page).getByRole('button', { name: 'Sign In' })).toBeVisible();
  await expect(mainNav(page).getByRole('button', { name: 'Sign Out' })).toHaveCount(0);
  await expect(mainNav(page).getByRole('link', { name: 'Dashboard' })).toHaveCount(0);
}

export async function signOut(page: Page) {
  await mainNav(page).getByRole('button', { name: 'Sign Out' }).click();
  await expectSignedOut(page);
}

/** Creates an account through Create Account; the server runs without email confirmation. */
export async function signUp(page: Page, account: { fullName: string; email: string; password: string }) {
  const signIn = await openSignIn(page);
  await signIn.getByRole('button', { name: 'Create Account' }).click();
  const dialog = page.getByRole('dialog', { name: 'Create Account' });
  await dialog.getByLabel('Full Name').fill(account.fullName);
  await dialog.getByLabel('Email').fill(account.email);
  await dialog.getByLabel('Password').fill(account.password);
  const signedUp = page.waitForResponse(
    (response) => new URL(response.url()).pathname === '/auth/v1/signup' && response.request().method() === 'POST',
  );
  await dialog.getByRole('button', { name: 'Create Account' }).click();
  expect((await signedUp).status()).toBe(200);
  await expectSignedIn(page);
}
