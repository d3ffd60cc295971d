// Commerce (docs/billing.md; spec section 2 "Landing page", "Product detail page", "Dashboard",
// section 4): checkout through the local test payment provider, as a buyer does it, against the
// real server. Every test signs up its own buyer. The catalogue is shared by all specs, so stock is
// read before buying and compared after, never assumed to be the seed's number; the two tests that
// reserve cables are in this one file, so they never run at the same time.
import { mainNav, signUp, uniqueEmail } from './auth-helpers';
import {
  activeSubscriptionsPanel,
  cancelButton,
  dashboardCard,
  declineButton,
  expectPaymentConfirmed,
  expectTestCheckoutPage,
  expectedPeriodEndDates,
  exactly,
  fillShippingAddress,
  orderHistory,
  payButton,
  readProductPageStock,
  signUpFreshBuyer,
  stockStatusText,
} from './commerce-helpers';
import { expect, test } from './fixtures';

const CABLE = { slug: 'usb-rs232-cable', name: 'USB to RS-232 Serial Cable' };

test('subscribe to HHTraff Terminal (yearly) and see it among the active subscriptions', async ({ page }) => {
  await signUpFreshBuyer(page, 'subscriber', 'Hemi Parata');

  await page.getByRole('article', { name: 'HHTraff Terminal' }).getByRole('link', { name: /View Details/ }).click();
  await page.getByRole('link', { name: 'Subscribe Now' }).click();
  await expect(page).toHaveURL(/\/checkout\/hhtraff$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Checkout' })).toBeVisible();

  const plans = page.getByRole('group', { name: 'Choose a pricing plan' });
  await expect(plans.getByRole('radio', { name: /Monthly/ })).toBeChecked();
  await expect(plans.getByRole('radio', { name: /Monthly/ })).toHaveAccessibleName(/\$15\.00 per month/);
  await plans.getByRole('radio', { name: /Yearly/ }).check();
  await expect(plans.getByRole('radio', { name: /Yearly/ })).toHaveAccessibleName(/\$150\.00 per year/);
  await page.getByRole('button', { name: 'Continue to Payment' }).click();

  await expectTestCheckoutPage(page);
  await expect(page.getByRole('main')).toContainText('HHTraff Terminal (Yearly) × 1');
  await expect(page.getByRole('main')).toContainText('$150.00 NZD per year');
  const paidFrom = Date.now();
  await payButton(page, '$150.00').click();

  const orderNumber = await expectPaymentConfirmed(page);
  const paidBy = Date.now();
  await expect(dashboardCard(page, 'Active Subscriptions')).toHaveText('1');
  await expect(dashboardCard(page, 'Total Orders')).toHaveText('1');
  await expect(dashboardCard(page, 'Account Type')).toHaveText('Individual');

  const subscription = activeSubscriptionsPanel(page).getByRole('listitem').filter({ hasText: 'HHTraff Terminal' });
  await expect(subscription).toHaveCount(1);
  await expect(subscription).toContainText('Active · test checkout');
  // A yearly plan paid now ends a year from now: beyond 7 days, so the date is shown.
  const ends = await expectedPeriodEndDates(page, [paidFrom, paidBy], 'year', 1);
  await expect(subscription.getByText(/^Expires /)).toHaveText(exactly(ends.map((date) => `Expires ${date}`)));

  const order = orderHistory(page).getByRole('article', { name: `Order ${orderNumber}` });
  await expect(order).toContainText('Paid');
  await expect(order).toContainText('$150.00');
  await expect(order.getByRole('list', { name: 'Items' })).toContainText('1 × HHTraff Terminal');

  // Subscribed already: a second checkout is refused, with the way to the dashboard.
  await page.goto('/checkout/hhtraff');
  await page.getByRole('button', { name: 'Continue to Payment' }).click();
  const refusal = page.getByRole('alert');
  await expect(refusal).toContainText('You already subscribe to HHTraff Terminal.');
  await expect(refusal.getByRole('link', { name: 'Dashboard' })).toHaveAttribute('href', '/dashboard');
  await expect(page).toHaveURL(/\/checkout\/hhtraff$/);
});

test('buy two USB to RS-232 cables: the order is in the history and the stock falls by two', async ({ page }) => {
  await signUpFreshBuyer(page, 'cable-buyer', 'Ana Tupou');

  const card = page.getByRole('article', { name: CABLE.name });
  await expect(card.getByText(/^\d+ in stock$/)).toBeVisible();
  await card.getByRole('link', { name: /View Details/ }).click();
  await expect(page).toHaveURL(new RegExp(`/product/${CABLE.slug}$`));
  const before = await readProductPageStock(page);
  expect(before).toBeGreaterThanOrEqual(2);

  await page.getByRole('link', { name: 'Buy Now' }).click();
  await expect(page).toHaveURL(new RegExp(`/checkout/${CABLE.slug}$`));
  await expect(page.getByRole('heading', { level: 2, name: CABLE.name })).toBeVisible();
  await page.getByLabel('Quantity').selectOption('2');
  await expect(page.getByRole('definition').filter({ hasText: /^\$98\.00$/ })).toBeVisible();
  await page.getByRole('button', { name: 'Continue to Payment' }).click();

  await expectTestCheckoutPage(page);
  await expect(page.getByRole('main')).toContainText(`${CABLE.name} × 2`);
  await fillShippingAddress(page);
  await payButton(page, '$98.00').click();

  const orderNumber = await expectPaymentConfirmed(page);
  await expect(dashboardCard(page, 'Total Orders')).toHaveText('1');
  await expect(dashboardCard(page, 'Active Subscriptions')).toHaveText('0');
  const order = orderHistory(page).getByRole('article', { name: `Order ${orderNumber}` });
  await expect(order).toBeVisible();
  await expect(order).toContainText('Paid');
  await expect(order).toContainText('$98.00');
  await expect(order.getByRole('list', { name: 'Items' })).toContainText(`2 × ${CABLE.name}`);
  await expect(activeSubscriptionsPanel(page)).toContainText('You have no active subscriptions.');

  // The order's GST tax invoice opens from the order, ready to print (docs/billing.md, "Tax invoices").
  await order.getByRole('link', { name: /^Tax invoice INV-\d{6,}$/ }).click();
  await expect(page).toHaveURL(/\/account\/invoices\/INV-\d{6,}$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Tax Invoice' })).toBeVisible();
  const invoice = page.getByRole('article', { name: /^Tax Invoice INV-/ });
  await expect(invoice).toContainText(`Order ${orderNumber}`);
  await expect(invoice).toContainText(/GST number \d{2,3}-\d{3}-\d{3}/);
  await expect(invoice.getByRole('table', { name: 'Lines' })).toContainText(CABLE.name);
  await expect(invoice).toContainText('GST content$12.78'); // 3/23 of $98.00
  await expect(page.getByRole('button', { name: 'Print or save as PDF' })).toBeVisible();

  // Back in the store, the landing card and the product page both show two fewer.
  await page.getByRole('banner').getByRole('link', { name: 'Signalcraft' }).click();
  await expect(page).toHaveURL(/\/$/);
  const cardAfter = page.getByRole('article', { name: CABLE.name });
  await expect(cardAfter.getByText(`${String(before - 2)} in stock`, { exact: true })).toBeVisible();
  await cardAfter.getByRole('link', { name: /View Details/ }).click();
  await expect(page.getByRole('region', { name: 'Stock Status' })).toContainText(stockStatusText(before - 2));
});

test('a declined card, then Cancel: back on the checkout, the stock is released and nothing is paid', async ({ page }) => {
  await signUpFreshBuyer(page, 'decliner', 'Rawiri Hohaia');
  await page.goto(`/product/${CABLE.slug}`);
  const before = await readProductPageStock(page);
  expect(before).toBeGreaterThanOrEqual(3);

  await page.getByRole('link', { name: 'Buy Now' }).click();
  await page.getByLabel('Quantity').selectOption('3');
  await page.getByRole('button', { name: 'Continue to Payment' }).click();
  await expectTestCheckoutPage(page);

  // While the checkout is open its three cables are reserved: another tab sees three fewer.
  const otherTab = await page.context().newPage();
  await otherTab.goto(`/product/${CABLE.slug}`);
  await expect(otherTab.getByRole('region', { name: 'Stock Status' })).toContainText(stockStatusText(before - 3));
  await otherTab.close();

  await declineButton(page).click();
  await expect(page.getByRole('alert')).toContainText('Your card was declined.');
  // Nothing changed: still the same open checkout, Pay still offered.
  await expectTestCheckoutPage(page);
  await expect(payButton(page, '$147.00')).toBeVisible();

  await cancelButton(page).click();
  await expect(page).toHaveURL(new RegExp(`/checkout/${CABLE.slug}\\?cancelled=[^&]+$`));
  const notice = page.getByRole('status').filter({ hasText: 'Checkout cancelled' });
  await expect(notice).toContainText('Your checkout was cancelled and nothing was charged.');
  // The quantity offered goes up to the stock again (at most 99).
  await expect(page.getByLabel('Quantity').getByRole('option')).toHaveCount(Math.min(before, 99));

  await page.getByRole('link', { name: `Back to ${CABLE.name}` }).click();
  await expect(page.getByRole('region', { name: 'Stock Status' })).toContainText(stockStatusText(before));

  await mainNav(page).getByRole('link', { name: 'Dashboard' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByRole('heading', { level: 2, name: 'Order History' })).toBeVisible();
  await expect(orderHistory(page).getByText('Paid', { exact: true })).toHaveCount(0);
  await expect(dashboardCard(page, 'Active Subscriptions')).toHaveText('0');
});

test('a sold-out product has no buy button, and its checkout offers no way to pay', async ({ page }) => {
  await page.goto('/product/hit-rs485-interface');
  await expect(page.getByRole('heading', { level: 1, name: 'HIT RS-422/485 Interface' })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Stock Status' })).toContainText('Out of Stock');
  await expect(page.getByRole('status').filter({ hasText: 'OUT OF STOCK' })).toContainText('This item is currently out of stock');
  await expect(page.getByRole('link', { name: /Buy Now|Subscribe Now/ })).toHaveCount(0);

  await signUp(page, { fullName: 'Kiri Moana', email: uniqueEmail('sold-out'), password: `Pw-${String(Date.now())}-kaka` });
  await page.goto('/checkout/hit-rs485-interface');
  await expect(page.getByRole('heading', { level: 1, name: 'Checkout' })).toBeVisible();
  const soldOut = page.getByRole('status').filter({ hasText: 'SOLD OUT' });
  await expect(soldOut).toContainText('This item is currently out of stock');
  await expect(page.getByRole('button', { name: 'Continue to Payment' })).toHaveCount(0);
  await expect(page.getByLabel('Quantity')).toHaveCount(0);
  await expect(page.getByRole('link', { name: 'Back to HIT RS-422/485 Interface' })).toBeVisible();
});
