// Unpaid orders and Manage billing on the dashboard (issue 24; docs/billing.md, "Unpaid orders"), as
// a customer does it in Chromium against the real server: a checkout left unpaid waits in the Order
// History and is paid from there; another is cancelled from there and its stock comes back; Manage
// billing opens the local provider's test portal; axe finds nothing serious on the dashboard with
// an unpaid order on it.
import type { Page } from '@playwright/test';
import {
  dashboardCard,
  expectPaymentConfirmed,
  expectTestCheckoutPage,
  fillShippingAddress,
  orderHistory,
  payButton,
  readProductPageStock,
  signUpFreshBuyer,
  stockStatusText,
} from './commerce-helpers';
import { expectNoSeriousAxeFindings } from './axe';
import { expect, test } from './fixtures';

const CABLE = { slug: 'usb-rs232-cable', name: 'USB to RS-232 Serial Cable' };

/** Starts a checkout of `quantity` cables and leaves it on the TEST MODE page, unpaid. */
async function leaveCheckoutUnpaid(page: Page, quantity: number) {
  await page.goto(`/product/${CABLE.slug}`);
  await page.getByRole('link', { name: 'Buy Now' }).click();
  await page.getByLabel('Quantity').selectOption(String(quantity));
  await page.getByRole('button', { name: 'Continue to Payment' }).click();
  await expectTestCheckoutPage(page);
}

async function openDashboard(page: Page) {
  await page.goto('/dashboard');
  await expect(page.getByRole('heading', { level: 2, name: 'Order History' })).toBeVisible();
}

function unpaidOrder(page: Page) {
  return orderHistory(page)
    .getByRole('article')
    .filter({ hasText: /Awaiting payment until/ });
}

test('an unpaid checkout waits in the Order History, is paid from there, and Manage billing opens the test portal', async ({ page }) => {
  await signUpFreshBuyer(page, 'unpaid-payer', 'Mere Tākuta');
  // Unknown to the payment provider yet: no Manage billing.
  await openDashboard(page);
  await expect(orderHistory(page)).toContainText('You have no orders yet.');
  await expect(page.getByRole('button', { name: 'Manage billing' })).toHaveCount(0);

  await leaveCheckoutUnpaid(page, 1);
  await openDashboard(page);
  await expect(dashboardCard(page, 'Total Orders')).toHaveText('1');
  const order = unpaidOrder(page);
  await expect(order).toHaveCount(1);
  await expect(order).toContainText('Pending');
  await expect(order).toContainText('$49.00');
  await expect(order.getByRole('link', { name: 'Complete payment' })).toHaveAttribute('href', /\/pay\/test\/[^/]+$/);
  await expect(order.getByRole('button', { name: 'Cancel order' })).toBeVisible();

  // axe on the dashboard with an unpaid order (and Manage billing) on it.
  await expectNoSeriousAxeFindings(page, 'dashboard with an unpaid order');

  // Complete payment: back to the same checkout, paid there.
  const orderName = (await order.getAttribute('aria-label')) ?? '';
  await order.getByRole('link', { name: 'Complete payment' }).click();
  await expectTestCheckoutPage(page);
  await fillShippingAddress(page);
  await payButton(page, '$49.00').click();
  const orderNumber = await expectPaymentConfirmed(page);
  expect(orderName).toBe(`Order ${orderNumber}`);
  const paid = orderHistory(page).getByRole('article', { name: `Order ${orderNumber}` });
  await expect(paid).toContainText('Paid');
  await expect(paid.getByRole('link', { name: 'Complete payment' })).toHaveCount(0);
  await expect(dashboardCard(page, 'Total Orders')).toHaveText('1');

  // Manage billing: the local provider's test portal, with the way back to the dashboard.
  await page.getByRole('button', { name: 'Manage billing' }).click();
  await expect(page).toHaveURL(/\/pay\/test\/portal\/[^/]+$/);
  await expect(page.getByRole('note')).toContainText('TEST MODE');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(/^Billing for your .+ account$/);
  await expect(page.getByRole('link', { name: /^Return to / })).toHaveAttribute('href', /\/dashboard$/);
});

test('an unpaid order cancelled from the Order History gives its stock back', async ({ page }) => {
  await signUpFreshBuyer(page, 'unpaid-canceller', 'Tane Rāwiri');
  await page.goto(`/product/${CABLE.slug}`);
  const before = await readProductPageStock(page);
  expect(before).toBeGreaterThanOrEqual(2);

  await leaveCheckoutUnpaid(page, 2);
  await page.goto(`/product/${CABLE.slug}`);
  await expect(page.getByRole('region', { name: 'Stock Status' })).toContainText(stockStatusText(before - 2));

  await openDashboard(page);
  const order = unpaidOrder(page);
  await expect(order).toContainText('$98.00');
  const orderName = (await order.getAttribute('aria-label')) ?? '';
  // Asked first; Keep order leaves it as it was.
  await order.getByRole('button', { name: 'Cancel order' }).click();
  await order.getByRole('button', { name: 'Keep order' }).click();
  await order.getByRole('button', { name: 'Cancel order' }).click();
  await order.getByRole('button', { name: 'Yes, cancel order' }).click();

  const cancelled = orderHistory(page).getByRole('article', { name: orderName });
  await expect(cancelled).toContainText('Cancelled');
  await expect(cancelled.getByRole('link', { name: 'Complete payment' })).toHaveCount(0);
  await expect(cancelled.getByRole('button', { name: 'Cancel order' })).toHaveCount(0);
  await expect(dashboardCard(page, 'Total Orders')).toHaveText('1');

  await page.goto(`/product/${CABLE.slug}`);
  await expect(page.getByRole('region', { name: 'Stock Status' })).toContainText(stockStatusText(before));
});
