import { expect, test } from './fixtures';

test('read the terms from the footer and close them', async ({ page }) => {
  await page.goto('/');
  await page.getByRole('contentinfo').getByRole('button', { name: 'Terms and Conditions' }).click();
  await expect(page).toHaveURL(/\/terms$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Terms and Conditions' })).toBeVisible();
  await expect(page.getByText('Last updated: October 2025')).toBeVisible();
  await expect(page.getByRole('heading', { level: 2, name: /^\d+\. / })).toHaveCount(9);
  await expect(page.getByText(/no change-of-mind refunds after digital delivery, except as required by law/)).toBeVisible();
  await expect(page).toHaveTitle('Terms and Conditions | Signalcraft');

  await page.getByRole('button', { name: 'Close' }).click();
  await expect(page).toHaveURL(/\/$/);
});

test('read the privacy policy directly and close it', async ({ page }) => {
  const response = await page.goto('/privacy');
  expect(response?.status()).toBe(200);
  await expect(page.getByRole('heading', { level: 1, name: 'Privacy Policy' })).toBeVisible();
  await expect(page.getByRole('heading', { level: 2, name: /^\d+\. / })).toHaveCount(10);
  await expect(page.getByRole('heading', { name: '3. Our mobile apps' })).toBeVisible();
  await page.getByRole('button', { name: 'Close' }).click();
  await expect(page).toHaveURL(/\/$/);
});

test('a first load of a legal page is the HTML the build wrote: its links stay in the app', async ({ page }) => {
  const scripts: string[] = [];
  page.on('request', (request) => {
    if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname);
  });
  await page.goto('/privacy', { waitUntil: 'networkidle' });
  await expect(page.getByRole('heading', { level: 1, name: 'Privacy Policy' })).toBeVisible();
  await expect(page).toHaveTitle('Privacy Policy | Signalcraft');
  await expect(page.locator('meta[name="description"]')).toHaveAttribute('content', /^How Signalcraft Limited collects/);
  // The first chunk only: the page's own code is not loaded for what the HTML already shows.
  expect(scripts.filter((path) => /Privacy|Legal/.test(path))).toEqual([]);
  // Its link moves within the app (no new document: the marker survives); signed out, the page's
  // guard sends the visitor on home.
  await page.evaluate(() => ((window as unknown as { stayed: boolean }).stayed = true));
  await page.getByRole('link', { name: 'Your Data' }).first().click();
  await expect(page).not.toHaveURL(/\/privacy$/);
  expect(await page.evaluate(() => (window as unknown as { stayed?: boolean }).stayed)).toBe(true);
  // Back to it, it renders from its code, the same page.
  await page.goBack();
  await expect(page).toHaveURL(/\/privacy$/);
  await expect(page.getByRole('heading', { level: 2, name: /^\d+\. / })).toHaveCount(10);
  await page.getByRole('button', { name: 'Close' }).click();
  await expect(page).toHaveURL(/\/$/);
  expect(await page.evaluate(() => (window as unknown as { stayed?: boolean }).stayed)).toBe(true);
});
