import { expect, test } from './fixtures';

test('the landing page renders the catalogue from the initial data, under the CSP', async ({ page }) => {
  const apiRequests: string[] = [];
  page.on('request', (request) => {
    if (new URL(request.url()).pathname.startsWith('/api/')) apiRequests.push(request.url());
  });

  const response = await page.goto('/');
  expect(response?.status()).toBe(200);
  expect(response?.headers()['content-security-policy']).toContain("script-src 'self'");

  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Your serial terminal, in your pocket');
  await expect(page.getByText(/an industrial handheld terminal app for the technicians and engineers/)).toBeVisible();

  const cards = page.getByRole('article');
  await expect(cards).toHaveCount(5);
  await expect(cards.getByRole('heading', { level: 3 })).toHaveText([
    'HHTraff Terminal',
    'WireWrite',
    'USB to RS-232 Serial Cable',
    'Bluetooth Serial Adapter',
    'HIT RS-422/485 Interface',
  ]);
  await expect(page.getByRole('article', { name: 'Bluetooth Serial Adapter' }).getByText('4 in stock')).toBeVisible();
  // The seed has 42 cables; commerce.spec.ts buys some from the same database, so only the form is fixed here.
  await expect(page.getByRole('article', { name: 'USB to RS-232 Serial Cable' }).getByText(/^\d+ in stock$/)).toBeVisible();
  await expect(page.getByRole('article', { name: 'HHTraff Terminal' }).getByRole('link', { name: /View Details/ })).toHaveAttribute(
    'href',
    '/product/hhtraff',
  );

  const beta = page.getByRole('link', { name: /Become a beta tester/ });
  await expect(beta).toHaveAttribute('href', 'https://play.google.com/apps/testing/nz.co.signalcraft.hhtraff');
  await expect(beta).toHaveAttribute('target', '_blank');
  await expect(beta).toHaveAttribute('rel', /noopener/);

  await expect(page.getByRole('region', { name: 'Enterprise Solutions' }).getByRole('button', { name: 'Contact Sales' })).toBeVisible();
  await expect(page.getByRole('contentinfo')).toContainText(`© ${String(new Date().getFullYear())} Signalcraft Limited. All rights reserved.`);

  // The server's head is kept: one title, one description, JSON-LD present on the first load.
  await expect(page).toHaveTitle(/Signalcraft/);
  await expect(page.locator('head meta[name="description"]')).toHaveCount(1);

  // The first render came from the embedded initial data: no API call was needed.
  expect(apiRequests).toEqual([]);
});

test('a sold-out product shows the SOLD OUT banner and no buy button', async ({ page }) => {
  await page.goto('/');
  const card = page.getByRole('article', { name: 'HIT RS-422/485 Interface' });
  await expect(card.getByText('SOLD OUT')).toBeVisible();
  await expect(card.getByText('This item is currently out of stock')).toBeVisible();
  await expect(card.getByText(/in stock$/)).toHaveCount(0);

  await card.getByRole('link', { name: /View Details/ }).click();
  await expect(page).toHaveURL(/\/product\/hit-rs485-interface$/);
  await expect(page.getByRole('heading', { level: 1, name: 'HIT RS-422/485 Interface' })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Stock Status' })).toContainText('Out of Stock');
  await expect(page.getByText('OUT OF STOCK', { exact: true })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Buy Now' })).toHaveCount(0);
});

test('signed-in routes send a visitor back to the landing page', async ({ page }) => {
  await page.goto('/checkout/hhtraff');
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Your serial terminal, in your pocket');

  await page.goto('/admin/products');
  await expect(page).toHaveURL(/\/$/);
});
