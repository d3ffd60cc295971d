// The staff's order lifecycle (docs/billing.md, "Order lifecycle"; refunds by line) in Chromium
// against the real server: a buyer pays, through the local TEST MODE provider, for two cables
// ($98.00). Staff open the order: only what a paid order allows is offered (no free status
// choice). They refund one of the two cables with it back to stock through the Refund dialog,
// whose confirmation says what will happen, then cancel the paid order from its page: the
// confirmation says the rest is refunded and the other cable goes back to stock, and the order
// shows Cancelled with both refunds listed and nothing left to do. The stock ends where it started.
import type { Browser, Page } from '@playwright/test';
import { signOut, signUp, uniqueEmail } from './auth-helpers';
import { expectPaymentConfirmed, expectTestCheckoutPage, fillShippingAddress, readProductPageStock } from './commerce-helpers';
import { quote, sqlite } from './db-helpers';
import { expect, test } from './fixtures';
import { CABLE, removeAuthenticator, signInAdminWithTwoFactor } from './staff-helpers';

function mailsTo(email: string): number {
  return Number(sqlite(`SELECT COUNT(*) AS n FROM mail_outbox WHERE to_address = ${quote(email)}`)[0]?.n ?? 0);
}

async function stockOf(page: Page, slug: string): Promise<number> {
  await page.goto(`/product/${slug}`);
  return readProductPageStock(page);
}

/** A buyer pays for two cables through the TEST MODE page. Answers the order's id and number. */
async function buyTwoCables(browser: Browser, email: string): Promise<{ id: string; number: string }> {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    await page.goto('/');
    await signUp(page, { fullName: 'Mere Tāwhiri', email, password: `Pw-${String(Date.now())}-lifecycle` });
    await page.goto(`/product/${CABLE.slug}`);
    await page.getByRole('link', { name: 'Buy Now' }).click();
    await page.getByLabel('Quantity').selectOption('2');
    await page.getByRole('button', { name: 'Continue to Payment' }).click();
    await expectTestCheckoutPage(page);
    await fillShippingAddress(page);
    await page.getByRole('button', { name: 'Pay $98.00', exact: true }).click();
    const number = await expectPaymentConfirmed(page);
    const [order] = sqlite(`SELECT CAST(id AS TEXT) AS id FROM orders WHERE order_number = ${quote(number)}`);
    const id = String(order?.id ?? '');
    expect(id).not.toBe('');
    return { id, number };
  } finally {
    await context.close();
  }
}

test('staff refund one line of a paid order with its item restocked, then cancel the order with a confirmation', async ({ page, browser }) => {
  test.setTimeout(150_000);
  const cableBefore = await stockOf(page, CABLE.slug);
  const email = uniqueEmail('lifecycle-buyer');
  const order = await buyTwoCables(browser, email);

  await signInAdminWithTwoFactor(page);
  try {
    await page.goto(`/admin/orders/${order.id}`);
    await expect(page.getByRole('heading', { level: 1, name: `Order ${order.number}` })).toBeVisible();
    const summary = page.getByRole('region', { name: 'Summary' });
    await expect(summary).toContainText('$98.00');
    // A paid order with hardware: only its own moves, and no free status choice.
    const actions = page.getByRole('group', { name: 'Order actions' });
    await expect(actions.getByRole('button')).toHaveText(['Mark as shipped', 'Mark as completed', 'Refund', 'Cancel order']);
    await expect(page.getByRole('combobox')).toHaveCount(0);
    const items = page.getByRole('table', { name: 'Items' });
    await expect(items.getByRole('row')).toHaveCount(2);

    // ---- Refund one of the two cables, it back to stock ----
    let mails = mailsTo(email);
    await actions.getByRole('button', { name: 'Refund' }).click();
    const refund = page.getByRole('dialog', { name: `Refund order ${order.number}` });
    await expect(refund).toContainText('$98.00 of $98.00 can still be refunded.');
    await refund.getByRole('combobox', { name: `Quantity to refund: ${CABLE.name}` }).selectOption('1');
    await expect(refund.getByRole('textbox', { name: /Amount/ })).toHaveValue('49.00');
    await refund.getByRole('textbox', { name: 'Reason' }).fill('One cable not needed');
    await refund.getByRole('checkbox', { name: 'Return these items to stock' }).check();
    await refund.getByRole('button', { name: 'Continue' }).click();
    const confirmRefund = page.getByRole('dialog', { name: `Confirm refund of order ${order.number}` });
    await expect(confirmRefund).toContainText('Refunds $49.00 to the customer, returns 1 item to stock, emails the customer.');
    const refunded = page.waitForResponse((r) => new URL(r.url()).pathname === `/api/v1/admin/orders/${order.id}/refunds` && r.request().method() === 'POST');
    await confirmRefund.getByRole('button', { name: 'Refund' }).click();
    const refundAnswer = await refunded;
    expect(refundAnswer.status()).toBe(200);
    expect(JSON.parse(refundAnswer.request().postData() ?? '{}')).toMatchObject({ amount: 4900, restock: true, lines: [{ quantity: 1 }] });
    await expect(page.getByRole('status').filter({ hasText: `Refunded $49.00 of order ${order.number}.` })).toBeVisible();
    await expect(page.getByRole('dialog')).toHaveCount(0);
    const cableRow = items.getByRole('row').filter({ hasText: CABLE.name });
    await expect(cableRow.getByRole('cell')).toHaveText([CABLE.name, '2', '$49.00', '$98.00', '1', '1']);
    await expect(summary).toContainText('Refunded: $49.00');
    await expect.poll(() => mailsTo(email)).toBeGreaterThan(mails);

    // ---- Cancel the paid order: the rest refunded, the cable back to stock ----
    mails = mailsTo(email);
    await actions.getByRole('button', { name: 'Cancel order' }).click();
    const cancel = page.getByRole('dialog', { name: `Cancel order ${order.number}` });
    await cancel.getByRole('button', { name: 'Continue' }).click();
    await expect(cancel.getByRole('textbox', { name: /Reason/ })).toHaveAccessibleDescription(/Give the reason for cancelling the order\./);
    await cancel.getByRole('textbox', { name: /Reason/ }).fill('Customer asked to cancel');
    await expect(cancel.getByRole('checkbox', { name: 'Return the items to stock' })).toBeChecked();
    await cancel.getByRole('button', { name: 'Continue' }).click();
    const confirmCancel = page.getByRole('dialog', { name: `Confirm cancellation of order ${order.number}` });
    await expect(confirmCancel).toContainText('Refunds $49.00 to the customer, returns 1 item to stock, emails the customer.');
    const cancelled = page.waitForResponse((r) => new URL(r.url()).pathname === `/api/v1/admin/orders/${order.id}/cancel` && r.request().method() === 'POST');
    await confirmCancel.getByRole('button', { name: 'Cancel order' }).click();
    const cancelAnswer = await cancelled;
    expect(cancelAnswer.status()).toBe(200);
    expect(JSON.parse(cancelAnswer.request().postData() ?? '{}')).toEqual({ reason: 'Customer asked to cancel', restock: true });
    await expect(page.getByRole('status').filter({ hasText: `Order ${order.number} is now Cancelled.` })).toBeVisible();
    await expect(summary.locator('span', { hasText: /^Cancelled$/ })).toBeVisible();
    await expect(summary).toContainText('Refunded: $98.00');
    // Nothing left to do with it.
    await expect(page.getByRole('group', { name: 'Order actions' })).toHaveCount(0);
    const refunds = page.getByRole('table', { name: 'Refunds' }).getByRole('row');
    await expect(refunds).toHaveCount(3); // the header and the two refunds
    await expect(refunds.filter({ hasText: 'One cable not needed' })).toHaveCount(1);
    await expect(refunds.filter({ hasText: 'Customer asked to cancel' })).toHaveCount(1);
    await expect(cableRow.getByRole('cell').nth(5)).toHaveText('2');
    await expect.poll(() => mailsTo(email)).toBeGreaterThan(mails);

    // The list agrees, and both products' stock is where it started.
    await page.goto('/admin/orders');
    await page.getByRole('searchbox', { name: 'Search orders' }).fill(order.number);
    await page.getByRole('searchbox', { name: 'Search orders' }).press('Enter');
    const row = page.getByRole('table', { name: 'Orders' }).getByRole('row').filter({ hasText: order.number });
    await expect(row.locator('span', { hasText: /^Cancelled$/ })).toBeVisible();
    await expect(row.getByRole('button')).toHaveCount(0);
    expect(await stockOf(page, CABLE.slug)).toBe(cableBefore);
  } finally {
    // Leave the staff admin without two-factor, as the other specs expect.
    await removeAuthenticator(page);
    await signOut(page);
  }
});
