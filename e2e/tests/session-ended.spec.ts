// A session ended elsewhere (issue 33): the same customer is signed in in two browsers; browser A
// uses "Sign out of other devices" on /account. Browser B still holds its tokens, but the server no
// longer knows its session: on its next page (/dashboard, then /account after signing in again)
// it signs out locally, says "You were signed out. Sign in again." in the sign-in dialog, and
// never shows the server's raw text nor an empty dashboard in its place.
import type { Browser, Page } from '@playwright/test';
import { expectSignedIn, expectSignedOut, signUp, uniqueEmail } from './auth-helpers';
import { currentServer } from '../spec-servers';
import { expect, test } from './fixtures';

const SIGNED_OUT_TEXT = 'You were signed out. Sign in again.';
/** What must never reach B's page. */
const NEVER_SHOWN = ['Session from session_id claim in JWT does not exist', 'You have no orders yet', 'Auth session missing'];

/** A second browser whose page records whether any of NEVER_SHOWN ever appeared, however briefly. */
async function secondBrowser(browser: Browser): Promise<Page> {
  const context = await browser.newContext({ baseURL: currentServer().baseURL });
  const page = await context.newPage();
  await page.addInitScript((texts: string[]) => {
    const seen: string[] = [];
    (window as unknown as { __neverShown: string[] }).__neverShown = seen;
    const check = () => {
      const text = document.body?.innerText ?? '';
      for (const t of texts) if (text.includes(t) && !seen.includes(t)) seen.push(t);
    };
    new MutationObserver(check).observe(document, { childList: true, subtree: true, characterData: true });
  }, NEVER_SHOWN);
  return page;
}

async function neverShown(page: Page): Promise<string[]> {
  return page.evaluate(() => (window as unknown as { __neverShown: string[] }).__neverShown);
}

async function signInInDialog(page: Page, email: string, password: string) {
  const dialog = page.getByRole('dialog', { name: 'Sign In' });
  await dialog.getByLabel('Email').fill(email);
  await dialog.getByLabel('Password').fill(password);
  await dialog.getByRole('button', { name: 'Sign In' }).click();
  await expectSignedIn(page);
}

async function signOutOtherDevices(page: Page) {
  await page.goto('/account');
  const devices = page.getByRole('region', { name: 'Devices' });
  await devices.getByRole('button', { name: 'Sign out of other devices' }).click();
  await expect(devices.getByRole('status')).toHaveText('You have been signed out on every other device, and links we emailed you earlier no longer work.');
}

async function expectToldToSignIn(page: Page) {
  const dialog = page.getByRole('dialog', { name: 'Sign In' });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole('alert')).toHaveText(SIGNED_OUT_TEXT);
  await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Sign Out' })).toHaveCount(0);
}

test('a session ended in another browser signs this one out and asks to sign in again', async ({ page, browser }) => {
  // Two browsers, a sign-up and two sign-ins (argon2id each): over 30 s on a busy 2-core machine.
  test.setTimeout(90_000);
  const account = { fullName: 'Tama Twobrowsers', email: uniqueEmail('session-ended'), password: 'two browsers 5521' };
  await page.goto('/');
  await signUp(page, account);

  const other = await secondBrowser(browser);
  await other.goto('/');
  await other.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Sign In' }).click();
  await signInInDialog(other, account.email, account.password);
  await other.goto('/dashboard');
  await expect(other.getByText('Total Orders')).toBeVisible();

  // A ends every other session; B's next page finds its session gone.
  await signOutOtherDevices(page);
  await other.goto('/dashboard');
  await expectToldToSignIn(other);
  await expect(other).toHaveURL(/\/$/);

  // Signing in again works; the same happens on /account.
  await signInInDialog(other, account.email, account.password);
  await other.goto('/account');
  await expect(other.getByRole('textbox', { name: 'Full name' })).toHaveValue(account.fullName);
  await signOutOtherDevices(page);
  await other.goto('/account');
  await expectToldToSignIn(other);
  await other.getByRole('dialog', { name: 'Sign In' }).getByRole('button', { name: 'Close' }).click();
  await expectSignedOut(other);

  expect(await neverShown(other)).toEqual([]);
  // A itself stays signed in.
  await page.goto('/dashboard');
  await expectSignedIn(page);
  await other.context().close();
});
