// Shipping and fulfilment (issue 23; docs/billing.md, "Shipping and fulfilment"), as people do it
// in Chromium against the real server: a buyer purchases a cable through the TEST MODE page with a
// shipping address (a bad postcode is shown beside its field first, the other values kept), staff
// see the address, mark the order shipped with a carrier and tracking number and open its packing
// slip, and the buyer sees the tracking in their order history (and has the "shipped" mail).
import { expectSignedIn, signOut, signUp, submitSignIn, uniqueEmail } from './auth-helpers';
import { expectPaymentConfirmed, expectTestCheckoutPage, fillShippingAddress, orderHistory, payButton } from './commerce-helpers';
import { quote, sqlite } from './db-helpers';
import { expect, test } from './fixtures';
import { CABLE, removeAuthenticator, signInAdminWithTwoFactor } from './staff-helpers';

function outboxMail(email: string, kind: string): string[] {
  return sqlite(`SELECT subject || char(10) || body_text AS mail FROM mail_outbox WHERE to_address = ${quote(email)} AND kind = ${quote(kind)}`).map((row) =>
    String(row.mail),
  );
}

test('a cable bought with a shipping address is shipped with tracking, and the buyer sees the tracking', async ({ page }) => {
  // One TOTP step of waiting at most, on top of the browsing.
  test.setTimeout(120_000);
  const buyer = { fullName: 'Aroha Ngāti', email: uniqueEmail('ship-buyer'), password: `Pw-${String(Date.now())}-ship` };
  await page.goto('/');
  await signUp(page, buyer);

  // The buyer: a cable, paid through the TEST MODE page, which asks where it goes.
  await page.goto(`/product/${CABLE.slug}`);
  await page.getByRole('link', { name: 'Buy Now' }).click();
  await page.getByRole('button', { name: 'Continue to Payment' }).click();
  await expectTestCheckoutPage(page);
  const address = { name: 'Aroha Ngāti', line1: '12 Kauri Street', line2: 'Flat 2', city: 'Wellington', postalCode: '60111', country: 'New Zealand', phone: '021 555 0101' };
  await fillShippingAddress(page, address);
  await payButton(page, '$49.00').click();
  // A five-digit postcode: the page says so beside the field, keeps the values, and nothing is paid.
  const fields = page.getByRole('group', { name: 'Shipping address' });
  await expect(page.getByRole('alert')).toContainText('Check the shipping address: nothing was charged.');
  await expect(fields.getByLabel('Postcode')).toHaveAttribute('aria-invalid', 'true');
  await expect(fields.getByLabel('Postcode')).toHaveAccessibleDescription('A New Zealand postcode is four digits.');
  await expect(fields.getByLabel('Address line 1')).toHaveValue('12 Kauri Street');
  await expect(fields.getByLabel('Postcode')).toHaveValue('60111');
  await fields.getByLabel('Postcode').fill('6011');
  await payButton(page, '$49.00').click();
  const orderNumber = await expectPaymentConfirmed(page);
  const order = orderHistory(page).getByRole('article', { name: `Order ${orderNumber}` });
  await expect(order).toContainText('Shipping toAroha Ngāti, 12 Kauri Street, Flat 2, Wellington 6011, New Zealand');
  await expect(order).toContainText('Not shipped yet.');
  await signOut(page);

  // Staff: two-factor first (the admin routes need it; removed again at the end).
  await signInAdminWithTwoFactor(page);

  try {
    await page.goto('/admin/orders');
    await page.getByRole('searchbox', { name: 'Search orders' }).fill(orderNumber);
    await page.getByRole('searchbox', { name: 'Search orders' }).press('Enter');
    const row = page.getByRole('table', { name: 'Orders' }).getByRole('row').filter({ hasText: orderNumber });
    await expect(row).toHaveCount(1);
    await row.getByRole('link', { name: orderNumber }).click();
    await expect(page.getByRole('heading', { level: 1, name: `Order ${orderNumber}` })).toBeVisible();
    const shipping = page.getByRole('region', { name: 'Shipping' });
    await expect(shipping).toContainText('Aroha Ngāti');
    await expect(shipping).toContainText('Wellington 6011');
    await expect(shipping).toContainText('Phone: 021 555 0101');
    await expect(shipping).toContainText('No tracking yet.');

    await page.getByRole('group', { name: 'Order actions' }).getByRole('button', { name: 'Mark as shipped' }).click();
    const dialog = page.getByRole('dialog', { name: `Mark order ${orderNumber} as shipped` });
    await dialog.getByLabel('Carrier (optional)').fill('NZ Post');
    await dialog.getByLabel('Tracking number (optional)').fill('LY123456789NZ');
    await dialog.getByRole('button', { name: 'Mark as shipped' }).click();
    await expect(page.getByRole('status').filter({ hasText: `Order ${orderNumber} is now Shipped.` })).toBeVisible();
    await expect(shipping).toContainText('Carrier: NZ Post');
    await expect(shipping).toContainText('Tracking number: LY123456789NZ');

    // The packing slip: ship-to and items, no prices.
    await shipping.getByRole('link', { name: 'Packing slip' }).click();
    const slip = page.getByRole('article', { name: 'Packing slip' });
    await expect(slip).toContainText(orderNumber);
    await expect(slip.getByRole('region', { name: 'Ship to' })).toContainText('12 Kauri Street');
    await expect(slip.getByRole('table')).toContainText(CABLE.name);
    await expect(slip).not.toContainText('$');
    await page.emulateMedia({ media: 'print' });
    await expect(page.locator('body > #root header').first()).toBeHidden();
    await expect(page.getByRole('button', { name: 'Print' })).toBeHidden();
    await expect(slip).toBeVisible();
    await page.emulateMedia({ media: 'screen' });
  } finally {
    // Leave the staff admin without two-factor, as the other specs expect.
    await removeAuthenticator(page);
    await signOut(page);
  }

  // The buyer: the tracking in the order history, and the mail.
  await submitSignIn(page, buyer.email, buyer.password);
  await expectSignedIn(page);
  await page.goto('/dashboard');
  const shipped = orderHistory(page).getByRole('article', { name: `Order ${orderNumber}` });
  await expect(shipped).toContainText('Shipped');
  await expect(shipped).toContainText('NZ Post: LY123456789NZ');
  const mails = outboxMail(buyer.email, 'order_shipped');
  expect(mails).toHaveLength(1);
  expect(mails[0]).toContain(`Your order ${orderNumber} has shipped`);
  expect(mails[0]).toContain('Tracking number: LY123456789NZ');
});
