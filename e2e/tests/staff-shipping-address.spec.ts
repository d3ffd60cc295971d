// The staff's address (docs/billing.md, "Staff's address") in Chromium against the real server: a
// buyer starts a checkout of a cable and leaves the payment page, so the order is unpaid goods with
// no address. Staff open it: the Shipping card says so (never "digital") and offers Add address;
// Mark as paid asks for the address beside the payment reference, refuses to send it half filled
// ("This field is required."), and with it marks the order paid and shows the address on the card.
// Change address then corrects it, and the history says so.
import type { Browser } from '@playwright/test';
import { signOut, signUp, uniqueEmail } from './auth-helpers';
import { expectTestCheckoutPage } from './commerce-helpers';
import { expect, test } from './fixtures';
import { CABLE, removeAuthenticator, signInAdminWithTwoFactor } from './staff-helpers';

/** A new buyer starts a checkout of one cable and leaves the TEST MODE page unpaid, giving no address. */
async function leaveCableCheckout(browser: Browser, email: string): Promise<void> {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    await page.goto('/');
    await signUp(page, { fullName: 'Hemi Walker', email, password: `Pw-${String(Date.now())}-address` });
    await page.goto(`/product/${CABLE.slug}`);
    await page.getByRole('link', { name: 'Buy Now' }).click();
    await page.getByRole('button', { name: 'Continue to Payment' }).click();
    await expectTestCheckoutPage(page);
  } finally {
    await context.close();
  }
}

test('staff mark unpaid goods with no address as paid with the address, then correct it', async ({ page, browser }) => {
  // One TOTP step of waiting at most (removing the authenticator), on top of the browsing.
  test.setTimeout(120_000);
  const email = uniqueEmail('address-buyer');
  await leaveCableCheckout(browser, email);

  await signInAdminWithTwoFactor(page);
  try {
    await page.goto('/admin/orders');
    await page.getByRole('searchbox', { name: 'Search orders' }).fill(email);
    await page.getByRole('searchbox', { name: 'Search orders' }).press('Enter');
    const row = page.getByRole('table', { name: 'Orders' }).getByRole('row').filter({ hasText: email });
    await expect(row).toHaveCount(1);
    await expect(row.locator('span', { hasText: /^Pending$/ })).toBeVisible();
    await row.getByRole('link').first().click();
    await expect(page).toHaveURL(/\/admin\/orders\/[0-9a-f-]{36}$/);
    // The order's number, once it has loaded ("Order Details" is the heading until then).
    const heading = page.getByRole('heading', { level: 1, name: /^Order [A-Z0-9]+-[A-Z0-9-]+$/ });
    await expect(heading).toBeVisible();
    const orderNumber = ((await heading.textContent()) ?? '').replace(/^Order /, '').trim();
    expect(orderNumber).not.toBe('');

    // Goods with no address yet: said so, never called digital; the address is the card's, not an order action.
    const shipping = page.getByRole('region', { name: 'Shipping' });
    await expect(shipping).toContainText('No shipping address yet.');
    await expect(shipping).not.toContainText(/digital/i);
    await expect(shipping.getByRole('button', { name: 'Add address' })).toBeVisible();
    const actions = page.getByRole('group', { name: 'Order actions' });
    await expect(actions.getByRole('button')).toHaveText(['Mark as paid', 'Cancel order']);

    // ---- Mark as paid asks where the goods go ----
    const patches: string[] = [];
    page.on('request', (request) => {
      if (request.method() === 'PATCH' && /\/api\/v1\/admin\/orders\/[^/]+$/.test(new URL(request.url()).pathname)) patches.push(request.postData() ?? '');
    });
    await actions.getByRole('button', { name: 'Mark as paid' }).click();
    const dialog = page.getByRole('dialog', { name: `Mark order ${orderNumber} as paid` });
    const address = dialog.getByRole('group', { name: 'Shipping address' });
    await expect(address).toContainText('This order has goods to send and no address yet: enter where they go.');
    await dialog.getByRole('textbox', { name: /Payment reference/ }).fill('ANZ 06-0123 HEMI');
    await address.getByRole('textbox', { name: /^Name/ }).fill('Hemi Walker');
    await dialog.getByRole('button', { name: 'Mark as paid' }).click();
    // Half filled: each missing member says so beside itself, and nothing is sent.
    for (const label of [/^Address line 1/, /^City/, /^Postcode/]) {
      await expect(address.getByRole('textbox', { name: label })).toHaveAccessibleDescription('This field is required.');
    }
    await expect(address.getByRole('textbox', { name: /^Name/ })).not.toHaveAttribute('aria-invalid');
    expect(patches).toEqual([]);

    await address.getByRole('textbox', { name: /^Address line 1/ }).fill('7 Rimu Road');
    await address.getByRole('textbox', { name: /^City/ }).fill('Nelson');
    await address.getByRole('textbox', { name: /^Postcode/ }).fill('7010');
    await expect(address.getByRole('combobox', { name: 'Country' })).toHaveValue('NZ');
    const paid = page.waitForResponse((r) => /\/api\/v1\/admin\/orders\/[^/]+$/.test(new URL(r.url()).pathname) && r.request().method() === 'PATCH');
    await dialog.getByRole('button', { name: 'Mark as paid' }).click();
    const paidAnswer = await paid;
    expect(paidAnswer.status()).toBe(200);
    expect(JSON.parse(paidAnswer.request().postData() ?? '{}')).toEqual({
      status: 'paid',
      payment_reference: 'ANZ 06-0123 HEMI',
      shipping_address: { name: 'Hemi Walker', line1: '7 Rimu Road', line2: null, city: 'Nelson', state: null, postal_code: '7010', country: 'NZ', phone: null },
    });
    await expect(page.getByRole('status').filter({ hasText: `Order ${orderNumber} is now Paid.` })).toBeVisible();
    await expect(dialog).toHaveCount(0);
    await expect(page.getByRole('region', { name: 'Summary' }).locator('span', { hasText: /^Paid$/ })).toBeVisible();
    await expect(shipping).toContainText('Hemi Walker');
    await expect(shipping).toContainText('7 Rimu Road');
    await expect(shipping).toContainText('Nelson 7010');
    await expect(shipping).toContainText('New Zealand');
    await expect(shipping.getByRole('button', { name: 'Add address' })).toHaveCount(0);

    // ---- Change address corrects it; the history says so ----
    await shipping.getByRole('button', { name: 'Change address' }).click();
    const change = page.getByRole('dialog', { name: `Shipping address of order ${orderNumber}` });
    await expect(change.getByRole('textbox', { name: /^Name/ })).toHaveValue('Hemi Walker');
    await expect(change.getByRole('textbox', { name: /^Address line 1/ })).toHaveValue('7 Rimu Road');
    await change.getByRole('textbox', { name: /^Address line 1/ }).fill('9 Rimu Road');
    await change.getByRole('textbox', { name: 'Phone (optional)' }).fill('021 555 0199');
    const saved = page.waitForResponse((r) => /\/api\/v1\/admin\/orders\/[^/]+\/shipping-address$/.test(new URL(r.url()).pathname) && r.request().method() === 'PUT');
    await change.getByRole('button', { name: 'Save address' }).click();
    expect((await saved).status()).toBe(200);
    await expect(page.getByRole('status').filter({ hasText: `Shipping address of order ${orderNumber} saved.` })).toBeVisible();
    await expect(change).toHaveCount(0);
    await expect(shipping).toContainText('9 Rimu Road');
    await expect(shipping).not.toContainText('7 Rimu Road');
    await expect(shipping).toContainText('Phone: 021 555 0199');
    await expect(page.getByRole('table', { name: 'Status History' })).toContainText('Shipping address corrected');
  } finally {
    // Leave the staff admin without two-factor, as the other specs expect.
    await removeAuthenticator(page);
    await signOut(page);
  }
});
