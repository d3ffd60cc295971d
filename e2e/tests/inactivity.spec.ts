// Spec sections 4 and 9: a signed-in user is signed out after 15 minutes without mouse, keyboard,
// scroll or touch activity. page.clock drives the app's timers; it must be installed before the
// page loads so that the app's timers are the fake ones.
import { expectSignedIn, expectSignedOut, mainNav, signUp, uniqueEmail } from './auth-helpers';
import { expect, test } from './fixtures';

test('15 minutes without activity signs the user out; activity starts the wait again', async ({ page }) => {
  await page.clock.install();
  await page.goto('/');
  await signUp(page, { fullName: 'Tama Reti', email: uniqueEmail('tama'), password: `Pw-${String(Date.now())}-weka` });
  await mainNav(page).getByRole('link', { name: 'Dashboard' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);

  await page.clock.fastForward('14:00');
  await expectSignedIn(page);
  await page.mouse.move(200, 300);
  await page.mouse.move(240, 320);
  await page.clock.fastForward('14:00');
  await expectSignedIn(page);

  const loggedOut = page.waitForRequest((request) => new URL(request.url()).pathname === '/auth/v1/logout');
  await page.clock.fastForward('15:01');
  await loggedOut;
  await expectSignedOut(page);
  // The signed-in page sends the visitor back to the landing page.
  await expect(page).toHaveURL(/\/$/);
});
