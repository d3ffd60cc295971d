// CSV exports (issue 25; docs/backoffice.md, "Exports") in Chromium against the real server: staff
// filter Order Management and download "Export CSV"; the file holds the filtered orders only, with
// a byte-order mark, a header row, money in major units beside its currency, New Zealand time with
// its offset, and a customer name that would be a formula neutralised.
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { signOut } from './auth-helpers';
import { quote, sqlite } from './db-helpers';
import { expect, test } from './fixtures';
import { removeAuthenticator, signInAdminWithTwoFactor } from './staff-helpers';

/** An order written straight into the database (the export reads what is stored). */
function insertOrder(order: { number: string; status: string; total: number; email: string; at: string; shipTo?: string }): void {
  const ship = order.shipTo
    ? `, shipping_name = ${quote(order.shipTo)}, shipping_line1 = '1 Queen Street', shipping_city = 'Tāmaki Makaurau', shipping_postal_code = '1010', shipping_country = 'NZ'`
    : '';
  const id = randomUUID();
  sqlite(
    `INSERT INTO orders (id, order_number, status, total_amount, currency, customer_email, created_at, updated_at) ` +
      `VALUES (${quote(id)}, ${quote(order.number)}, ${quote(order.status)}, ${String(order.total)}, 'NZD', ${quote(order.email)}, ${quote(order.at)}, ${quote(order.at)});` +
      (ship ? `UPDATE orders SET ${ship.slice(2)} WHERE id = ${quote(id)};` : ''),
  );
}

test('staff download the filtered orders as CSV from Order Management', async ({ page }) => {
  test.setTimeout(120_000);
  const tag = `export-${String(Date.now())}`;
  const email = `${tag}@example.test`;
  const paid = `EX-${String(Date.now()).slice(-8)}-P`;
  const pending = `EX-${String(Date.now()).slice(-8)}-Q`;
  insertOrder({ number: paid, status: 'paid', total: 123456, email, at: '2026-07-01T00:00:00.000Z', shipTo: '=HYPERLINK("x")' });
  insertOrder({ number: pending, status: 'pending', total: 900, email, at: '2026-07-02T00:00:00.000Z' });

  await signInAdminWithTwoFactor(page);

  try {
    await page.goto('/admin/orders');
    await page.getByRole('group', { name: 'Filter by status' }).getByRole('button', { name: 'Paid', exact: true }).click();
    await page.getByRole('searchbox', { name: 'Search orders' }).fill(email);
    await page.getByRole('searchbox', { name: 'Search orders' }).press('Enter');
    const rows = page.getByRole('table', { name: 'Orders' }).getByRole('row');
    await expect(rows.filter({ hasText: paid })).toHaveCount(1);
    await expect(rows.filter({ hasText: pending })).toHaveCount(0);

    const downloading = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export CSV' }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toMatch(/^orders-\d{4}-\d{2}-\d{2}\.csv$/);
    const text = readFileSync((await download.path())!, 'utf8');
    expect(text.startsWith('\uFEFForder_number,created_at,status,customer_email,customer_name,currency,total,')).toBe(true);
    const lines = text.slice(1).split('\r\n');
    expect(lines).toHaveLength(3); // the header, one order, and the empty text after the last CRLF
    expect(lines[2]).toBe('');
    expect(lines[1]).toContain(`${paid},2026-07-01T12:00:00+12:00,paid,${email},"'=HYPERLINK(""x"")",NZD,1234.56,0.00,`);
    expect(text).not.toContain(pending);
  } finally {
    // Leave the staff admin without two-factor, as the other specs expect.
    await removeAuthenticator(page);
    await signOut(page);
  }
});
