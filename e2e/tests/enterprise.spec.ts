// Spec section 2 "Enterprise management" and "Admin: Enterprise Account Management", sections 5
// and 8, and licences granting the apps (docs/enterprise.md): staff create an account for a new
// admin email and the invitation is in the outbox; that admin sets a password from the link, adds
// two members, hits the limit message and removes one; a member sees the licensed product active
// on the dashboard and on /test-subscription.
import type { APIRequestContext, Page } from '@playwright/test';
import { adminAccount, expectSignedIn, mainNav, signOut, submitSignIn, uniqueEmail } from './auth-helpers';
import { activeSubscriptionsPanel, dashboardCard, describedValue } from './commerce-helpers';
import { quote, sqlite } from './db-helpers';
import { expect, test } from './fixtures';
import { freshCode } from './totp';

test.describe.configure({ mode: 'serial' });

/** The licensed product: the one /test-subscription checks (the seed's WireWrite). */
const LICENSED_PRODUCT = 'WireWrite';

/** Mail queued for `email` in the server's outbox (the spec server's SQLite database). */
function outboxBodies(email: string): string[] {
  return sqlite(`SELECT body_text FROM mail_outbox WHERE to_address = ${quote(email)} ORDER BY created_at`).map((row) => String(row.body_text));
}

/** A person with an account (sign-up signs straight in on the spec server). */
async function signUpByApi(request: APIRequestContext, label: string) {
  const account = { email: uniqueEmail(label), password: `Pw-${String(Date.now())}-${label}` };
  const response = await request.post('/auth/v1/signup', { data: account });
  expect(response.status()).toBe(200);
  return account;
}

function twoFactorSection(page: Page) {
  return page.getByRole('region', { name: 'Two-Factor Authentication' });
}

test('staff set up an enterprise account; its admin builds the team; a member has the licensed product', async ({ page, request }) => {
  // One TOTP step of waiting at most, on top of the browsing.
  test.setTimeout(120_000);
  const admin = adminAccount();
  const accountAdminEmail = uniqueEmail('enterprise-admin');
  const company = `Harbour Traffic ${String(Date.now())}`;
  const first = await signUpByApi(request, 'member-one');
  const second = await signUpByApi(request, 'member-two');
  const third = await signUpByApi(request, 'member-three');

  // Staff: the admin routes need two-factor, so enable it first (and remove it at the end).
  await page.goto('/');
  await submitSignIn(page, admin.email, admin.password);
  await expectSignedIn(page);
  await mainNav(page).getByRole('link', { name: 'MFA' }).click();
  const section = twoFactorSection(page);
  await section.getByRole('button', { name: 'Enable Two-Factor Authentication' }).click();
  const secret = (await page.getByTestId('mfa-secret').textContent())!.trim();
  const enrolled = await freshCode(secret);
  await section.getByLabel(/6-digit code/).fill(enrolled.code);
  await section.getByRole('button', { name: 'Enable MFA' }).click();
  await expect(section.getByText('Enabled', { exact: true })).toBeVisible();

  await page.goto('/admin/enterprise');
  await expect(page.getByRole('heading', { level: 1, name: 'Enterprise Account Management' })).toBeVisible();
  const form = page.getByRole('region', { name: 'Create Account' });
  await form.getByLabel(/Company Name/).fill(company);
  await form.getByLabel(/Billing Email/).fill('accounts@harbour.example');
  await form.getByLabel(/Admin Email/).fill(accountAdminEmail);
  await form.getByRole('button', { name: 'Create Account' }).click();
  await expect(page.getByRole('status')).toContainText(`An invitation was sent to ${accountAdminEmail}`);

  const card = page.getByRole('article', { name: company });
  await expect(card).toContainText(`Admin: ${accountAdminEmail}`);
  await expect(card.getByText('Active', { exact: true })).toBeVisible();
  await expect(card).toContainText('1 user');
  await expect(card).toContainText('0 licenses');
  await card.getByRole('button', { name: 'View Details' }).click();
  await expect(card.getByText('No licenses assigned')).toBeVisible();
  // Three places (the admin and two members) and three WireWrite seats.
  await card.getByLabel('Member limit').fill('3');
  await card.getByRole('button', { name: 'Save Limit' }).click();
  await expect(card).toContainText('Limit: 3 members');
  const licences = card.getByRole('region', { name: 'Licenses' });
  await licences.getByLabel('Product').selectOption({ label: LICENSED_PRODUCT });
  await licences.getByLabel('Seats', { exact: true }).fill('3');
  await licences.getByRole('button', { name: 'Add Licence' }).click();
  await expect(licences).toContainText('1 / 3 used · 33% utilised');

  // Leave the staff admin without two-factor, as the other specs expect.
  await mainNav(page).getByRole('link', { name: 'MFA' }).click();
  // Removing two-factor asks for a current code (a later step than the enrolment's).
  await section.getByRole('button', { name: 'Remove' }).click();
  const removal = page.getByRole('dialog', { name: 'Remove authenticator' });
  await removal.getByLabel(/Code from your authenticator app/).fill((await freshCode(secret, enrolled.step)).code);
  await removal.getByRole('button', { name: 'Remove authenticator' }).click();
  await expect(section.getByText('Disabled', { exact: true })).toBeVisible();
  await signOut(page);

  // The invitation is in the outbox; its link signs the new admin in to choose a password.
  const mails = outboxBodies(accountAdminEmail);
  expect(mails).toHaveLength(1);
  expect(mails[0]).toContain(company);
  const link = /https?:\/\/\S+\/auth\/v1\/verify\?token=\S+/.exec(mails[0]!)?.[0];
  expect(link).toBeTruthy();
  await page.goto(link!);
  const setPassword = page.getByRole('dialog', { name: 'Set a new password' });
  await expect(setPassword).toBeVisible();
  const adminPassword = `Pw-${String(Date.now())}-kaka`;
  await setPassword.getByLabel('New Password', { exact: true }).fill(adminPassword);
  await setPassword.getByLabel('Confirm New Password').fill(adminPassword);
  await setPassword.getByRole('button', { name: 'Set Password' }).click();
  await expect(setPassword.getByText('Your password has been updated.')).toBeVisible();
  // The worded Close under the notice (the dialog's corner × is named Close too).
  await setPassword.getByRole('button', { name: 'Close' }).filter({ hasText: 'Close' }).click();
  await expect(page).toHaveURL(/\/enterprise$/);

  // The team page: the header links to it for an account's admin.
  await expect(mainNav(page).getByRole('link', { name: 'Enterprise' })).toBeVisible();
  await expect(page.getByRole('region', { name: company })).toContainText('1 of 3 licences used');
  const addForm = page.getByRole('region', { name: 'Add Team Member' });
  for (const member of [first, second]) {
    await addForm.getByLabel('Email').fill(member.email);
    await addForm.getByRole('button', { name: 'Add Member' }).click();
    await expect(addForm.getByRole('status')).toHaveText(`${member.email} was added to the team.`);
  }
  await expect(page.getByRole('region', { name: company })).toContainText('3 of 3 licences used');
  await addForm.getByLabel('Email').fill(uniqueEmail('nobody'));
  await addForm.getByRole('button', { name: 'Add Member' }).click();
  await expect(addForm.getByRole('alert')).toHaveText('User not found. They must create an account first.');
  await addForm.getByLabel('Email').fill(third.email);
  await addForm.getByRole('button', { name: 'Add Member' }).click();
  await expect(addForm.getByRole('alert')).toHaveText('License limit reached (3 licenses)');

  const team = page.getByRole('list', { name: 'Team members' });
  await expect(team.getByRole('listitem')).toHaveCount(3);
  await page.getByRole('button', { name: `Remove ${second.email}` }).click();
  const confirm = page.getByRole('dialog', { name: 'Remove Member' });
  await expect(confirm).toContainText('Remove this member from the enterprise account?');
  await confirm.getByRole('button', { name: 'Remove' }).click();
  await expect(team.getByRole('listitem')).toHaveCount(2);
  await expect(team).not.toContainText(second.email);
  await expect(page.getByRole('region', { name: company })).toContainText('2 of 3 licences used');
  await signOut(page);

  // A member has the licensed product: the dashboard and the subscription check say so.
  await submitSignIn(page, first.email, first.password);
  await expectSignedIn(page);
  await expect(mainNav(page).getByRole('link', { name: 'Enterprise' })).toHaveCount(0);
  await mainNav(page).getByRole('link', { name: 'Dashboard' }).click();
  await expect(dashboardCard(page, 'Account Type')).toHaveText('Enterprise');
  const licensed = activeSubscriptionsPanel(page).getByRole('listitem').filter({ hasText: LICENSED_PRODUCT });
  await expect(licensed).toContainText('Active · enterprise licence');
  await expect(licensed).toContainText('Never expires');

  await mainNav(page).getByRole('link', { name: 'Test Subscription' }).click();
  const panel = page.getByRole('region', { name: 'Subscription Status' });
  await expect(describedValue(panel, 'Valid')).toHaveText('Yes');
  await expect(describedValue(panel, 'Status')).toHaveText('active');
  await expect(describedValue(panel, 'Message')).toHaveText('Enterprise licence active');
});
