// Bulk shipping (issue 25; docs/backoffice.md, "Bulk shipping") in Chromium against the real
// server: three orders arranged in the database (two paid, one not), staff find them on Order
// Management, select all on the page, give a carrier and "Mark as shipped". The two paid orders
// ship, each with its own history row and customer mail; the pending one stays and the result says
// why ("Not paid: cannot ship.").
import { randomUUID } from 'node:crypto';
import { signOut } from './auth-helpers';
import { quote, sqlite } from './db-helpers';
import { expect, test } from './fixtures';
import { removeAuthenticator, signInAdminWithTwoFactor } from './staff-helpers';

/** An order with one line, written straight into the database (the checkout is not what is tested). */
function arrangeOrder(status: string, email: string, number: string): string {
  const id = randomUUID();
  const at = new Date().toISOString();
  sqlite(
    `INSERT INTO orders (id, order_number, status, total_amount, currency, customer_email, created_at, updated_at) ` +
      `VALUES (${quote(id)}, ${quote(number)}, ${quote(status)}, 4900, 'NZD', ${quote(email)}, ${quote(at)}, ${quote(at)});` +
      // The line is of a physical product (a digital order has nothing to ship).
      `INSERT INTO order_items (id, order_id, product_id, product_name, quantity, unit_amount) VALUES (${quote(randomUUID())}, ${quote(id)}, ` +
      `(SELECT id FROM products WHERE type = 'physical' ORDER BY slug LIMIT 1), 'USB to RS-232 Serial Cable', 1, 4900);`,
  );
  return id;
}

test('staff mark several orders as shipped at once and see which did not ship and why', async ({ page }) => {
  test.setTimeout(120_000);
  const tag = `bulk${String(Date.now())}`;
  const stamp = String(Date.now()).slice(-6);
  const orders = [
    { status: 'paid', email: `${tag}-1@example.test`, number: `SC-BK1-${stamp}` },
    { status: 'paid', email: `${tag}-2@example.test`, number: `SC-BK2-${stamp}` },
    { status: 'pending', email: `${tag}-3@example.test`, number: `SC-BK3-${stamp}` },
  ].map((o) => ({ ...o, id: arrangeOrder(o.status, o.email, o.number) }));

  await signInAdminWithTwoFactor(page);

  try {
    await page.goto('/admin/orders');
    await page.getByRole('searchbox', { name: 'Search orders' }).fill(tag);
    await page.getByRole('searchbox', { name: 'Search orders' }).press('Enter');
    const table = page.getByRole('table', { name: 'Orders' });
    await expect(table.getByRole('row')).toHaveCount(4); // the header and the three orders

    const bulk = page.getByRole('form', { name: 'Bulk shipping' });
    await bulk.getByRole('checkbox', { name: 'Select all on this page' }).check();
    await expect(bulk.getByText('3 selected')).toBeVisible();
    for (const o of orders) await expect(table.getByRole('checkbox', { name: `Select order ${o.number}` })).toBeChecked();
    await bulk.getByLabel('Carrier (optional)').fill('NZ Post');
    await bulk.getByRole('button', { name: 'Mark as shipped' }).click();

    const result = page.getByRole('region', { name: 'Bulk shipping result' });
    await expect(result).toContainText('2 shipped, 1 not shipped');
    await expect(result).toContainText(`${orders[2]!.number}: Not paid: cannot ship.`);
    const status = (number: string) => table.getByRole('row').filter({ hasText: number }).locator('span', { hasText: /^(Pending|Paid|Shipped)$/ });
    await expect(status(orders[0]!.number)).toHaveText('Shipped');
    await expect(status(orders[1]!.number)).toHaveText('Shipped');
    await expect(status(orders[2]!.number)).toHaveText('Pending');
    await expect(bulk.getByText('0 selected')).toBeVisible();

    // Each shipped order: its own history row and its own customer mail, with the carrier.
    for (const o of orders.slice(0, 2)) {
      expect(sqlite(`SELECT from_status, to_status, source FROM order_status_history WHERE order_id = ${quote(o.id)}`)).toEqual([
        { from_status: 'paid', to_status: 'shipped', source: 'staff' },
      ]);
      const mails = sqlite(`SELECT subject, body_text FROM mail_outbox WHERE to_address = ${quote(o.email)} AND kind = 'order_shipped'`);
      expect(mails).toHaveLength(1);
      expect(mails[0]!.subject).toBe(`Your order ${o.number} has shipped`);
      expect(mails[0]!.body_text).toContain('Carrier: NZ Post');
    }
    expect(sqlite(`SELECT COUNT(*) AS n FROM order_status_history WHERE order_id = ${quote(orders[2]!.id)}`)).toEqual([{ n: 0 }]);
    expect(sqlite(`SELECT COUNT(*) AS n FROM mail_outbox WHERE to_address = ${quote(orders[2]!.email)}`)).toEqual([{ n: 0 }]);
  } finally {
    // Leave the staff admin without two-factor, as the other specs expect.
    await removeAuthenticator(page);
    await signOut(page);
  }
});
