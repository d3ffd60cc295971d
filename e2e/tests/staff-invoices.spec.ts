// The accountant's view (docs/billing.md, "Tax invoices" and "GST") in Chromium against the real
// server, as the staff admin: a buyer pays for a cable through the local TEST MODE provider; its
// tax invoice is in the register at /admin/invoices (opened from the dashboard's Quick Actions),
// found by the order number, kept or left out by the kind filter (in the address), its number
// opening the printable document and its order number the order; "Export CSV" downloads the
// filtered register; and the GST report of the current two-monthly period grows by exactly the
// cable's NZD figures (GST 3/23 of $49.00 is $6.39).
import { readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { signOut } from './auth-helpers';
import { expectNoSeriousAxeFindings } from './axe';
import { describedValue } from './commerce-helpers';
import { quote, sqlite } from './db-helpers';
import { expect, test } from './fixtures';
import { buyCable, removeAuthenticator, signInAdminWithTwoFactor } from './staff-helpers';

const TOTAL_SALES = 'Total sales and income (including GST and zero-rated supplies)';

/** "$1,234.56" → 123456. */
function cents(text: string): number {
  const match = /^-?\$([\d,]+)\.(\d{2})$/.exec(text.trim());
  if (!match) throw new Error(`not an NZD amount: ${text}`);
  return Number(match[1]!.replace(/,/g, '')) * 100 + Number(match[2]);
}

interface GstFigures {
  sales: number;
  gst: number;
  invoiced: number;
  invoices: number;
}

/** The GST report of the current period (the period select's first option), NZD figures read off the page. */
async function currentPeriodFigures(page: Page): Promise<GstFigures> {
  await expect(page.getByRole('heading', { level: 1, name: 'GST report' })).toBeVisible();
  const period = page.getByRole('combobox', { name: 'GST period' });
  const current = (await period.locator('option').first().textContent()) ?? '';
  expect(current).toMatch(/^[A-Z][a-z]{2} – [A-Z][a-z]{2} \d{4}$/);
  await period.selectOption({ label: current });
  await expect(page).toHaveURL(/[?&]from=\d{4}-\d{2}-01&to=\d{4}-\d{2}-\d{2}$/);
  const nzd = page.getByRole('region', { name: 'New Zealand dollars (NZD)' });
  await expect(nzd).toBeVisible();
  await expect(page.getByRole('alert')).toHaveCount(0);
  const read = async (term: string) => ((await describedValue(nzd, term).textContent()) ?? '').trim();
  return {
    sales: cents(await read(TOTAL_SALES)),
    gst: cents(await read('GST on sales')),
    invoiced: cents(await read('Invoiced')),
    invoices: Number((await read('Tax invoices')).replace(/,/g, '')),
  };
}

test('the accountant finds, filters and exports the invoice register, and reads the GST report of the period', async ({ page, browser }) => {
  test.setTimeout(150_000);
  await signInAdminWithTwoFactor(page);
  try {
    await page.goto('/admin/reports/gst');
    const before = await currentPeriodFigures(page);

    const orderNumber = await buyCable(browser, 'invoices-buyer');
    const [row] = sqlite(
      `SELECT t.number, CAST(o.id AS TEXT) AS order_id FROM tax_invoices t JOIN orders o ON o.id = t.order_id ` +
        `WHERE o.order_number = ${quote(orderNumber)} AND t.kind = 'invoice'`,
    );
    const invoiceNumber = String(row?.number ?? '');
    const orderId = String(row?.order_id ?? '');
    expect(invoiceNumber).not.toBe('');

    // ---- The register, from the dashboard ----
    await page.goto('/admin');
    await page.getByRole('navigation', { name: 'Quick actions' }).getByRole('link', { name: 'Invoices' }).click();
    await expect(page).toHaveURL(/\/admin\/invoices$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Invoices' })).toBeVisible();
    const table = page.getByRole('table', { name: 'Invoices' });
    await expect(table.getByRole('columnheader')).toHaveText(['Number', 'Kind', 'Issued', 'Buyer', 'Order', 'Total', 'GST']);
    await page.getByRole('searchbox', { name: 'Search invoices' }).fill(orderNumber);
    await page.getByRole('searchbox', { name: 'Search invoices' }).press('Enter');
    await expect(page).toHaveURL(new RegExp(`[?&]q=${orderNumber}`));
    const entry = table.getByRole('row').filter({ hasText: invoiceNumber });
    await expect(table.getByRole('row')).toHaveCount(2); // the header and the cable's invoice
    await expect(entry.getByRole('cell').nth(1)).toHaveText('Tax invoice');
    await expect(entry.getByRole('cell').nth(5)).toHaveText('$49.00');
    await expect(entry.getByRole('cell').nth(6)).toHaveText('$6.39');
    await expect(entry.getByRole('link', { name: invoiceNumber })).toHaveAttribute('href', `/account/invoices/${invoiceNumber}`);
    await expect(entry.getByRole('link', { name: orderNumber })).toHaveAttribute('href', `/admin/orders/${orderId}`);

    // ---- The kind filter, in the address ----
    const kinds = page.getByRole('group', { name: 'Filter by kind' });
    await kinds.getByRole('button', { name: 'Credit notes' }).click();
    await expect(page).toHaveURL(/[?&]kind=credit_note/);
    await expect(table.getByRole('cell', { name: 'No invoices match your filters' })).toBeVisible();
    await kinds.getByRole('button', { name: 'Tax invoices' }).click();
    await expect(page).toHaveURL(/[?&]kind=invoice(&|$)/);
    await expect(entry).toBeVisible();
    await expect(kinds.getByRole('button', { name: 'Tax invoices' })).toHaveAttribute('aria-pressed', 'true');
    await expectNoSeriousAxeFindings(page, 'invoice register');

    // ---- Export CSV with the same filters ----
    const downloading = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export CSV' }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toMatch(/\.csv$/);
    const text = readFileSync((await download.path())!, 'utf8').replace(/^\uFEFF/, '');
    const lines = text.split('\r\n').filter((line) => line !== '');
    expect(lines[0]).toMatch(/\bnumber\b/);
    expect(lines[0]).not.toContain(invoiceNumber);
    expect(lines).toHaveLength(2); // the header row and the one invoice the filters keep
    expect(lines[1]).toContain(invoiceNumber);

    // ---- Its number opens the printable document ----
    await entry.getByRole('link', { name: invoiceNumber }).click();
    await expect(page).toHaveURL(new RegExp(`/account/invoices/${invoiceNumber}$`));
    await expect(page.getByText(invoiceNumber).first()).toBeVisible();
    await expect(page.getByRole('alert')).toHaveCount(0);
    await page.goBack();
    await expect(page).toHaveURL(/\/admin\/invoices\?/);

    // ---- The GST report of the period, from the register ----
    await page.getByRole('link', { name: 'GST report' }).click();
    const after = await currentPeriodFigures(page);
    expect(after).toEqual({
      sales: before.sales + 4900,
      gst: before.gst + 639,
      invoiced: before.invoiced + 4900,
      invoices: before.invoices + 1,
    });
    await expectNoSeriousAxeFindings(page, 'GST report');
  } finally {
    // Leave the staff admin without two-factor, as the other specs expect.
    await removeAuthenticator(page);
    await signOut(page);
  }
});
