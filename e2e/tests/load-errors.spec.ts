// A failed page load (issue 33): the dashboard's call answers 503 once; the page shows the error
// state with the request id and Retry, never zero counts or "You have no orders yet"; Retry loads it.
import { signUp, uniqueEmail } from './auth-helpers';
import { expect, test } from './fixtures';

test('a failed dashboard load shows the request id and Retry, and Retry loads it', async ({ page }) => {
  await page.goto('/');
  await signUp(page, { fullName: 'Lena Loaderror', email: uniqueEmail('load-error'), password: 'load error 8830' });
  // Two failures: the page retries a 5xx once by itself (app/queryClient.ts).
  let failures = 2;
  await page.route('**/api/v1/account/dashboard', async (route) => {
    if (failures > 0) {
      failures -= 1;
      await route.fulfill({
        status: 503,
        headers: { 'Content-Type': 'application/json', 'X-Request-Id': 'e2e-req-503' },
        body: JSON.stringify({ code: 'unavailable', message: 'The database is busy' }),
      });
    } else await route.continue();
  });
  const logged: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') logged.push(message.text());
  });
  await page.goto('/dashboard');
  const alert = page.getByRole('alert').filter({ hasText: 'Your dashboard could not be loaded.' });
  await expect(alert).toBeVisible();
  await expect(alert).toContainText('e2e-req-503');
  await expect(alert).not.toContainText('The database is busy');
  await expect(page.getByText('You have no orders yet.')).toHaveCount(0);
  await expect(page.getByText('Total Orders')).toHaveCount(0);
  expect(logged.some((text) => text.includes('Failed to load the dashboard'))).toBe(true);

  await alert.getByRole('button', { name: 'Retry' }).click();
  await expect(page.getByText('Total Orders')).toBeVisible();
  await expect(page.getByText('You have no orders yet.')).toBeVisible();
  await expect(alert).toHaveCount(0);
});
