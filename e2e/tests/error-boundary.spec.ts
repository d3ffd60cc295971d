// The app's error boundary in the built app (web/src/app/ErrorBoundary.tsx): a page whose code
// cannot be loaded (its chunk is gone after a deploy, or the network dropped) reloads the page
// once, then shows a message with Reload inside the layout: never a blank page, never a loop.
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';

const RELOAD_KEY = 'storefront:chunk-reload';

/** Counts the document loads of the page (the first one and every reload). */
function countDocumentLoads(page: Page): { value: number } {
  const loads = { value: 0 };
  page.on('request', (request) => {
    if (request.isNavigationRequest() && request.frame() === page.mainFrame()) loads.value += 1;
  });
  return loads;
}

test('a page chunk that fails to load reloads the page once, then shows the message', async ({ page }) => {
  const loads = countDocumentLoads(page);
  const aborted: string[] = [];
  // The route table's chunk (web/src/app/routes.tsx), which every page beyond the first chunk and
  // the static pages needs: here an unknown path, whose not-found page lives in it.
  await page.route('**/assets/routes-*.js', async (route) => {
    aborted.push(route.request().url());
    await route.abort();
  });

  await page.goto('/no-such-page');
  const alert = page.getByRole('alert');
  await expect(alert).toBeVisible();
  await expect(alert.getByRole('heading', { level: 1, name: 'Something went wrong' })).toBeVisible();
  await expect(alert).toContainText('This page could not be shown.');
  // Inside the layout: the visitor can still go elsewhere.
  await expect(page.getByRole('banner')).toBeVisible();
  await expect(page.getByRole('contentinfo')).toBeVisible();

  // Exactly one automatic reload: two document loads, the chunk asked for on each.
  expect(loads.value).toBe(2);
  expect(aborted.length).toBeGreaterThanOrEqual(2);
  const recorded = await page.evaluate((key) => sessionStorage.getItem(key), RELOAD_KEY);
  expect(Number(recorded)).toBeGreaterThan(0);
  // No loop: nothing else happens.
  await page.waitForTimeout(500);
  expect(loads.value).toBe(2);

  // Once the chunk is there again (a network back, a deploy finished), Reload shows the page.
  await page.unroute('**/assets/routes-*.js');
  const reload = alert.getByRole('button', { name: 'Reload' });
  await reload.focus();
  await expect(reload).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { level: 1, name: 'Page Not Found' })).toBeVisible();
  expect(loads.value).toBe(3);
});

test('after a deploy: moving to a page whose code is gone reloads into the new build, once', async ({ page }) => {
  const loads = countDocumentLoads(page);
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1, name: 'Your serial terminal, in your pocket' })).toBeVisible();
  // The old build's privacy page chunk no longer exists on the server.
  await page.route('**/assets/PrivacyPage-*.js', (route) => route.fulfill({ status: 404, body: 'Not Found' }));

  await page.getByRole('contentinfo').getByRole('button', { name: 'Privacy Policy' }).click();
  await expect(page).toHaveURL(/\/privacy$/);
  // The reload lands on /privacy, which the server sends as the build's HTML: the page shows
  // without the missing chunk (lib/staticPage.tsx), and there is no second reload.
  await expect(page.getByRole('heading', { level: 1, name: 'Privacy Policy' })).toBeVisible();
  await expect(page.getByRole('alert')).toHaveCount(0);
  expect(loads.value).toBe(2);
  await page.waitForTimeout(500);
  expect(loads.value).toBe(2);
});
