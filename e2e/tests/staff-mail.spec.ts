// The mail outbox and the enquiries (issue 25; docs/backoffice.md, "Mail Outbox", "Enquiries") in
// Chromium against the real server: a mail that failed for good (written into the outbox as the
// delivery job leaves one the relay refused five times) is found by its status and recipient,
// retried with "Retry now" and then sent by the job; a new enquiry (written as the Contact Sales
// form stores one) is marked handled. axe checks both screens with rows on them (WCAG 2.2 AA: no
// serious or critical finding).
import { randomUUID } from 'node:crypto';
import { adminAccount, signOut } from './auth-helpers';
import { expectNoSeriousAxeFindings } from './axe';
import { quote, sqlite } from './db-helpers';
import { expect, test } from './fixtures';
import { removeAuthenticator, signInAdminWithTwoFactor } from './staff-helpers';

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

  await signInAdminWithTwoFactor(page);

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
    await expectNoSeriousAxeFindings(page, '/admin/mail');

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
    await expectNoSeriousAxeFindings(page, '/admin/enquiries');
    await enquiry.getByRole('checkbox', { name: `Handled: enquiry from ${enquirer}` }).click();
    await expect(page.getByRole('status').filter({ hasText: `The enquiry from ${enquirer} is marked handled.` })).toBeVisible();
    await expect(enquiries.getByRole('row').filter({ hasText: enquirer })).toHaveCount(0); // no longer "not handled"
    await page.getByRole('group', { name: 'Filter by handled' }).getByRole('button', { name: 'Handled', exact: true }).click();
    await expect(enquiries.getByRole('row').filter({ hasText: enquirer })).toContainText(`by ${adminAccount().email}`);
    expect(sqlite(`SELECT COUNT(*) AS n FROM contact_submissions WHERE id = ${quote(enquiryId)} AND handled_at IS NOT NULL`)).toEqual([{ n: 1 }]);
  } finally {
    // Leave the staff admin without two-factor, as the other specs expect.
    await removeAuthenticator(page);
    await signOut(page);
  }
});
