// The mail outbox and the enquiries (issue 25; docs/backoffice.md, "Mail Outbox", "Enquiries") in
// Chromium against the real server: a mail that failed for good (written into the outbox as the
// delivery job leaves one the relay refused five times) is found by its status and recipient,
// retried with "Retry now" and then sent by the job; a new enquiry (written as the Contact Sales
// form stores one) is marked handled. axe checks both screens with rows on them (WCAG 2.2 AA: no
// serious or critical finding).
import AxeBuilder from '@axe-core/playwright';
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { adminAccount, expectSignedIn, mainNav, signOut, submitSignIn } from './auth-helpers';
import { expect, test } from './fixtures';
import { freshCode } from './totp';

function sqlite(sql: string): Record<string, unknown>[] {
  const dataDir = process.env.E2E_DATA_DIR;
  if (!dataDir) throw new Error('E2E_DATA_DIR is not set: run the specs through global-setup.ts');
  const out = execFileSync('sqlite3', ['-json', join(dataDir, 'e2e.db'), sql], { encoding: 'utf8' });
  return out.trim() ? (JSON.parse(out) as Record<string, unknown>[]) : [];
}

function quote(text: string): string {
  return `'${text.replace(/'/g, "''")}'`;
}

function twoFactor(page: Page) {
  return page.getByRole('region', { name: 'Two-Factor Authentication' });
}

async function expectNoSeriousAxeFinding(page: Page, what: string) {
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice']).analyze();
  const serious = results.violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical');
  console.log(`axe ${what}: ${String(results.passes.length)} rules pass, ${String(results.violations.length)} violations`);
  expect(serious.map((v) => `${v.id} (${v.impact ?? ''}): ${v.nodes.map((node) => node.target.join(' ')).join('; ')}`)).toEqual([]);
}

test('staff find a failed mail, retry it now and see it sent; mark an enquiry handled; axe on both screens', async ({ page }) => {
  test.setTimeout(120_000);
  const stamp = String(Date.now());
  const recipient = `refused-${stamp}@example.test`;
  const mailId = randomUUID();
  const at = new Date(Date.now() - 3_600_000).toISOString();
  sqlite(
    `INSERT INTO mail_outbox (id, kind, to_address, subject, body_text, status, attempts, next_attempt_at, last_error, created_at) VALUES ` +
      `(${quote(mailId)}, 'order_shipped', ${quote(recipient)}, 'Your order SC-MAIL-${stamp.slice(-4)} has shipped', 'Good news: https://example.test/?token=secret', ` +
      `'failed', 5, ${quote(at)}, '550 5.1.1 mailbox unavailable', ${quote(at)})`,
  );
  const enquirer = `Hemi Parata ${stamp.slice(-5)}`;
  const enquiryId = randomUUID();
  sqlite(
    `INSERT INTO contact_submissions (id, name, email, company, message, created_at) VALUES ` +
      `(${quote(enquiryId)}, ${quote(enquirer)}, 'hemi-${stamp}@example.test', 'Parata Traffic', 'A quote for ten seats, please.', ${quote(new Date().toISOString())})`,
  );

  const admin = adminAccount();
  await page.goto('/');
  await submitSignIn(page, admin.email, admin.password);
  await expectSignedIn(page);
  await mainNav(page).getByRole('link', { name: 'MFA' }).click();
  await twoFactor(page).getByRole('button', { name: 'Enable Two-Factor Authentication' }).click();
  const secret = (await page.getByTestId('mfa-secret').textContent())!.trim();
  await twoFactor(page).getByLabel(/6-digit code/).fill((await freshCode(secret)).code);
  await twoFactor(page).getByRole('button', { name: 'Enable MFA' }).click();
  await expect(twoFactor(page).getByText('Enabled', { exact: true })).toBeVisible();

  try {
    // From the dashboard's navigation.
    await page.goto('/admin');
    await page.getByRole('navigation', { name: 'Quick actions' }).getByRole('link', { name: 'Mail Outbox' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Mail Outbox' })).toBeVisible();
    await page.getByRole('group', { name: 'Filter by status' }).getByRole('button', { name: 'Failed' }).click();
    await page.getByRole('searchbox', { name: 'Search mail' }).fill(recipient);
    await page.getByRole('searchbox', { name: 'Search mail' }).press('Enter');
    await expect(page).toHaveURL(/status=failed/);
    const table = page.getByRole('table', { name: 'Mail outbox' });
    const row = table.getByRole('row').filter({ hasText: recipient });
    await expect(row).toHaveCount(1);
    await expect(row).toContainText('550 5.1.1 mailbox unavailable');
    await expect(row).toContainText('Failed');
    await expect(page.getByText('token=secret')).toHaveCount(0); // no body on the screen
    await expectNoSeriousAxeFinding(page, '/admin/mail');

    await row.getByRole('button', { name: /^Retry now/ }).click();
    await expect(page.getByRole('status').filter({ hasText: `The mail to ${recipient} will be sent again now.` })).toBeVisible();
    // The job delivers it (the outbox transport here): it shows as sent once the list reloads.
    await page.getByRole('group', { name: 'Filter by status' }).getByRole('button', { name: 'All' }).click();
    await expect(async () => {
      await page.reload();
      await expect(table.getByRole('row').filter({ hasText: recipient })).toContainText('Sent', { timeout: 1_000 });
    }).toPass({ timeout: 15_000 });
    expect(sqlite(`SELECT status, attempts FROM mail_outbox WHERE id = ${quote(mailId)}`)).toEqual([{ status: 'sent', attempts: 6 }]);
    expect(sqlite(`SELECT COUNT(*) AS n FROM audit_log WHERE action = 'mail.retried' AND target_id = ${quote(mailId)}`)).toEqual([{ n: 1 }]);

    // Enquiries: the new one, marked handled.
    await page.goto('/admin/enquiries?handled=false');
    await expect(page.getByRole('heading', { level: 1, name: 'Enquiries' })).toBeVisible();
    const enquiries = page.getByRole('table', { name: 'Enquiries' });
    const enquiry = enquiries.getByRole('row').filter({ hasText: enquirer });
    await expect(enquiry).toContainText('A quote for ten seats, please.');
    await expectNoSeriousAxeFinding(page, '/admin/enquiries');
    await enquiry.getByRole('checkbox', { name: `Handled: enquiry from ${enquirer}` }).click();
    await expect(page.getByRole('status').filter({ hasText: `The enquiry from ${enquirer} is marked handled.` })).toBeVisible();
    await expect(enquiries.getByRole('row').filter({ hasText: enquirer })).toHaveCount(0); // no longer "not handled"
    await page.getByRole('group', { name: 'Filter by handled' }).getByRole('button', { name: 'Handled', exact: true }).click();
    await expect(enquiries.getByRole('row').filter({ hasText: enquirer })).toContainText(`by ${admin.email}`);
    expect(sqlite(`SELECT COUNT(*) AS n FROM contact_submissions WHERE id = ${quote(enquiryId)} AND handled_at IS NOT NULL`)).toEqual([{ n: 1 }]);
  } finally {
    await page.goto('/admin/mfa');
    page.once('dialog', (confirm) => void confirm.accept());
    await twoFactor(page).getByRole('button', { name: 'Remove' }).click();
    await expect(twoFactor(page).getByText('Disabled', { exact: true })).toBeVisible();
    await signOut(page);
  }
});
