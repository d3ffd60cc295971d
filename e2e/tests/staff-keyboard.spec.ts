// Issue 25: the staff screens by keyboard alone. After signing in, nothing is clicked: focus moves
// with Tab and Shift+Tab, buttons are pressed with Enter or Space, text is typed (focus on an order's
// row never changes the order: only its pressed button does). The admin creates a subscription product (tabbing through both rich-text
// editors: Quill once kept Tab for itself, a keyboard trap), gives it a pricing plan, renames it,
// and ships a buyer's paid order with a tracking number. The product is deleted again at the end.
import type { Locator, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { buyCable, removeAuthenticator, signInAdminWithTwoFactor } from './staff-helpers';

test.describe.configure({ mode: 'serial' });

const isFocused = (target: Locator) => target.evaluate((el) => el === document.activeElement);

/** Presses Tab (or Shift+Tab) until `target` has the focus; fails after `limit` presses. */
async function tabTo(page: Page, target: Locator, { back = false, limit = 80 } = {}): Promise<void> {
  await expect(target).toBeVisible();
  for (let i = 0; i < limit; i++) {
    if (await isFocused(target)) return;
    await page.keyboard.press(back ? 'Shift+Tab' : 'Tab');
  }
  const active = await page.evaluate(() => document.activeElement?.outerHTML.slice(0, 200) ?? 'nothing');
  throw new Error(`focus never reached the target in ${String(limit)} presses; it is on ${active}`);
}

test('a product with a plan is created and edited, and an order shipped, with the keyboard only', async ({ page, browser, request }) => {
  test.setTimeout(150_000);
  const stamp = String(Date.now());
  const name = `Keyboard Logger ${stamp}`;
  const renamed = `Keyboard Logger Pro ${stamp}`;
  const orderNumber = await buyCable(browser, 'staff-keyboard-buyer');
  await signInAdminWithTwoFactor(page);
  try {
    // ---- Create the product ----
    await page.goto('/admin/products');
    await expect(page.getByRole('heading', { level: 1, name: 'Product Management' })).toBeVisible();
    await tabTo(page, page.getByRole('button', { name: 'Add Product' }));
    await page.keyboard.press('Enter');
    const form = page.getByRole('dialog');
    await expect(form.getByRole('textbox', { name: 'Home Page Description' })).toBeVisible();
    await tabTo(page, form.getByLabel(/^Name/));
    await page.keyboard.type(name);
    await tabTo(page, form.getByLabel(/^Slug/));
    await page.keyboard.type(`keyboard-logger-${stamp}`);
    // Through both editors and their toolbars to the button: Tab leaves each editor.
    const description = form.getByRole('textbox', { name: 'Home Page Description' });
    await tabTo(page, description);
    await page.keyboard.type('Logs serial data.');
    await page.keyboard.press('Tab');
    expect(await isFocused(description)).toBe(false);
    await expect(description).toHaveText('Logs serial data.'); // no tab character went in
    await tabTo(page, form.getByRole('button', { name: 'Create Product' }));
    await page.keyboard.press('Enter');
    await expect(page.getByRole('dialog')).toHaveCount(0);
    const row = page.getByRole('table', { name: 'Products' }).getByRole('row').filter({ hasText: name });
    await expect(row).toBeVisible();

    // ---- A pricing plan ----
    await tabTo(page, row.getByRole('button', { name: 'Manage Pricing' }));
    await page.keyboard.press('Enter');
    const plans = page.getByRole('dialog', { name: `Pricing Plans - ${name}` });
    await expect(plans).toBeVisible();
    await tabTo(page, plans.getByLabel(/^Plan Name/));
    await page.keyboard.type('Monthly');
    await tabTo(page, plans.getByLabel(/^Price/));
    await page.keyboard.type('12.50');
    await tabTo(page, plans.getByRole('button', { name: 'Add Plan' }));
    await page.keyboard.press('Enter');
    await expect(plans.getByRole('listitem', { name: 'Monthly' })).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(page.getByRole('dialog')).toHaveCount(0);
    // Focus is back on the button that opened the dialog.
    expect(await isFocused(row.getByRole('button', { name: 'Manage Pricing' }))).toBe(true);
    await expect(row).toContainText('1'); // one plan

    // ---- Rename it ----
    await tabTo(page, row.getByRole('button', { name: 'Edit Product' }), { back: true });
    await page.keyboard.press('Enter');
    const edit = page.getByRole('dialog');
    await expect(edit.getByRole('button', { name: 'Save Changes' })).toBeVisible();
    await tabTo(page, edit.getByLabel(/^Name/));
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.type(renamed);
    await tabTo(page, edit.getByRole('button', { name: 'Save Changes' }));
    await page.keyboard.press('Enter');
    await expect(page.getByRole('dialog')).toHaveCount(0);
    await expect(page.getByRole('table', { name: 'Products' }).getByRole('row').filter({ hasText: renamed })).toBeVisible();

    // ---- Ship the buyer's order ----
    await page.goto('/admin/orders');
    await expect(page.getByRole('link', { name: orderNumber })).toBeVisible();
    const orderRow = page.getByRole('table', { name: 'Orders' }).getByRole('row').filter({ hasText: orderNumber });
    const status = orderRow.locator('span', { hasText: /^(Paid|Shipped)$/ });
    await expect(status).toHaveText('Paid');
    // Focus passing over the row's actions changes nothing; only a pressed button does.
    await tabTo(page, orderRow.getByRole('button', { name: `Mark as shipped: ${orderNumber}` }));
    await expect(status).toHaveText('Paid');
    await page.keyboard.press('Enter'); // asks for the tracking details
    const ship = page.getByRole('dialog', { name: `Mark order ${orderNumber} as shipped` });
    await expect(ship).toBeVisible();
    await tabTo(page, ship.getByLabel('Carrier (optional)'));
    await page.keyboard.type('NZ Post');
    await tabTo(page, ship.getByLabel('Tracking number (optional)'));
    await page.keyboard.type('NZ123456789');
    await tabTo(page, ship.getByRole('button', { name: 'Mark as shipped' }));
    await page.keyboard.press('Enter');
    await expect(page.getByRole('dialog')).toHaveCount(0);
    await expect(status).toHaveText('Shipped');
  } finally {
    // Clean up through the API with the page's own session (the catalogue is shared with other specs).
    const token = await page.evaluate(() => {
      for (const key of Object.keys(localStorage)) {
        const value = localStorage.getItem(key) ?? '';
        if (value.includes('access_token')) return (JSON.parse(value) as { access_token?: string }).access_token ?? null;
      }
      return null;
    });
    if (token) {
      const headers = { Authorization: `Bearer ${token}` };
      const list = await request.get(`/api/v1/admin/products?q=${encodeURIComponent(stamp)}`, { headers });
      if (list.ok()) {
        const { items } = (await list.json()) as { items: { id: string }[] };
        for (const item of items) await request.delete(`/api/v1/admin/products/${item.id}`, { headers });
      }
    }
    await removeAuthenticator(page);
  }
});
