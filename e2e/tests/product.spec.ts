import { expect, test } from './fixtures';

test('open a product from the landing page: stock, plans and the picture lightbox', async ({ page }) => {
  await page.goto('/');
  const detailRequest = page.waitForRequest((request) => new URL(request.url()).pathname === '/api/v1/products/bluetooth-serial-adapter');
  await page.getByRole('article', { name: 'Bluetooth Serial Adapter' }).getByRole('link', { name: /View Details/ }).click();
  await detailRequest;

  await expect(page).toHaveURL(/\/product\/bluetooth-serial-adapter$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Bluetooth Serial Adapter' })).toBeVisible();
  await expect(page.getByText('Physical Product')).toBeVisible();
  const stock = page.getByRole('region', { name: 'Stock Status' });
  await expect(stock).toContainText('Only 4 left');
  await expect(page.getByRole('region', { name: 'Pricing' })).toContainText('$129.00');
  await expect(page.getByRole('link', { name: 'Buy Now' })).toHaveAttribute('href', '/checkout/bluetooth-serial-adapter');

  // The head follows client-side navigation, without duplicates.
  await expect(page).toHaveTitle(/^Bluetooth Serial Adapter \| Signalcraft/);
  await expect(page.locator('head meta[name="description"]')).toHaveCount(1);
  await expect(page.locator('head link[rel="canonical"]')).toHaveAttribute('href', /\/product\/bluetooth-serial-adapter$/);

  // The lightbox opens on click and closes with its close button, then with Escape.
  const enlarge = page.getByRole('button', { name: 'Enlarge Bluetooth Serial Adapter picture' });
  await enlarge.click();
  const lightbox = page.getByRole('dialog', { name: 'Bluetooth Serial Adapter picture' });
  await expect(lightbox).toBeVisible();
  await expect(lightbox.getByRole('img')).toHaveAttribute('src', '/products/bluetooth/bluetooth-adapter.svg');
  await lightbox.getByRole('button', { name: 'Close' }).click();
  await expect(lightbox).toBeHidden();
  await expect(enlarge).toBeFocused();

  await enlarge.click();
  await expect(lightbox).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(lightbox).toBeHidden();

  await page.getByRole('button', { name: 'Back to Products' }).click();
  await expect(page).toHaveURL(/\/$/);
});

test('a product page loads with its plans from the initial data', async ({ page }) => {
  const apiRequests: string[] = [];
  page.on('request', (request) => {
    if (new URL(request.url()).pathname.startsWith('/api/')) apiRequests.push(request.url());
  });
  const response = await page.goto('/product/hhtraff');
  expect(response?.status()).toBe(200);
  await expect(page.getByRole('heading', { level: 1, name: 'HHTraff Terminal' })).toBeVisible();
  await expect(page.getByText('Subscription', { exact: true })).toBeVisible();
  const pricing = page.getByRole('region', { name: 'Pricing' });
  await expect(pricing).toContainText('$15.00 per month');
  await expect(pricing).toContainText('$150.00 per year');
  await expect(page.getByRole('region', { name: 'Stock Status' })).toHaveCount(0);
  await expect(page.getByRole('link', { name: 'Subscribe Now' })).toHaveAttribute('href', '/checkout/hhtraff');
  await expect(page.locator('head script[type="application/ld+json"]')).toHaveCount(1);
  expect(apiRequests).toEqual([]);
});

test('WireWrite offers its external action and the Launch WireWrite App link', async ({ page }) => {
  await page.goto('/product/wirewrite');
  const launch = page.getByRole('link', { name: /Launch WireWrite App/ });
  await expect(launch).toHaveAttribute('href', 'https://app.wirewrite.co.nz');
  await expect(launch).toHaveAttribute('target', '_blank');
  const subscribe = page.getByRole('link', { name: /Subscribe Now/ });
  await expect(subscribe).toHaveAttribute('href', /^https:\/\/app\.wirewrite\.co\.nz\/?$/);
  await expect(subscribe).toHaveAttribute('target', '_blank');
});

test('an unknown product answers HTTP 404 and shows Product Not Found', async ({ page }) => {
  const response = await page.goto('/product/does-not-exist');
  expect(response?.status()).toBe(404);
  await expect(page.getByRole('heading', { name: 'Product Not Found' })).toBeVisible();
  await page.getByRole('button', { name: 'Back to Home' }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('article')).toHaveCount(5);
});

test('an unknown route shows the not-found page', async ({ page }) => {
  const response = await page.goto('/no/such/page');
  expect(response?.status()).toBe(404);
  await expect(page.getByRole('heading', { level: 1, name: 'Page Not Found' })).toBeVisible();
  await page.getByRole('link', { name: 'Back to Home' }).click();
  await expect(page).toHaveURL(/\/$/);
});
