// Spec section 2 "Subscription test page" and section 4 "Subscription validation cache": a signed-in
// person subscribes to WireWrite Pro ($6/month) from /test-subscription through the local test
// provider, checks the status, and cancels it in the test billing portal opened by Manage Billing.
import { mainNav } from './auth-helpers';
import {
  activeSubscriptionsPanel,
  dashboardCard,
  describedValue,
  expectPaymentConfirmed,
  expectTestCheckoutPage,
  expectedPeriodEndDates,
  exactly,
  payButton,
  signUpFreshBuyer,
} from './commerce-helpers';
import { expect, test } from './fixtures';
import type { Page } from '@playwright/test';

/** The seed's WireWrite 'Pro Monthly' plan (server/seed/catalogue.sql): $6.00 NZD every month. */
const PRO_MONTHLY_PRICE_ID = '0e16d193-902d-4547-a8ab-ef1d1c040ab8';

function statusPanel(page: Page) {
  return page.getByRole('region', { name: 'Subscription Status' });
}

function validateResponse(page: Page) {
  return page.waitForResponse(
    (response) => new URL(response.url()).pathname === '/functions/v1/validate-subscription' && response.request().method() === 'POST',
  );
}

async function openTestSubscriptionPage(page: Page) {
  const checked = validateResponse(page);
  await mainNav(page).getByRole('link', { name: 'Test Subscription' }).click();
  await expect(page).toHaveURL(/\/test-subscription$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Subscription Test' })).toBeVisible();
  // The status is checked on arrival.
  await checked;
  await expect(statusPanel(page).getByRole('status')).toContainText('Status checked');
}

test('subscribe from /test-subscription, Check Status shows it active, Manage Billing opens the test portal to cancel it', async ({ page }) => {
  await signUpFreshBuyer(page, 'pro-tester', 'Nikau Rangi');
  await openTestSubscriptionPage(page);

  const panel = statusPanel(page);
  await expect(page.getByRole('region', { name: 'Test Instructions' }).getByRole('definition')).toHaveText(PRO_MONTHLY_PRICE_ID);
  await expect(describedValue(panel, 'Valid')).toHaveText('No');
  await expect(describedValue(panel, 'Status')).toHaveText('none');
  await expect(describedValue(panel, 'Days Remaining')).toHaveText('0');
  await expect(describedValue(panel, 'Expiry Date')).toHaveText('None');
  await expect(describedValue(panel, 'Message')).toHaveText('No subscription found');
  await expect(panel.getByRole('alert')).toHaveCount(0);

  await panel.getByRole('button', { name: 'Subscribe ($6/month)' }).click();
  await expectTestCheckoutPage(page);
  await expect(page.getByRole('main')).toContainText('WireWrite (Pro Monthly) × 1');
  await expect(page.getByRole('main')).toContainText('$6.00 NZD per month');
  const paidFrom = Date.now();
  await payButton(page, '$6.00').click();

  // Back on the dashboard, which confirms the payment.
  await expectPaymentConfirmed(page);
  const paidBy = Date.now();
  await expect(dashboardCard(page, 'Active Subscriptions')).toHaveText('1');
  await expect(activeSubscriptionsPanel(page).getByRole('listitem').filter({ hasText: 'WireWrite' })).toContainText('Active');

  await openTestSubscriptionPage(page);
  const checked = validateResponse(page);
  await panel.getByRole('button', { name: 'Check Status' }).click();
  expect((await checked).status()).toBe(200);
  await expect(describedValue(panel, 'Valid')).toHaveText('Yes');
  await expect(describedValue(panel, 'Status')).toHaveText('active');
  await expect(describedValue(panel, 'Message')).toHaveText('Subscription active');
  await expect(describedValue(panel, 'Days Remaining')).toHaveText(/^(2[89]|3[01])$/);
  const ends = await expectedPeriodEndDates(page, [paidFrom, paidBy], 'month', 1);
  await expect(describedValue(panel, 'Expiry Date')).toHaveText(exactly(ends));
  await expect(panel.getByRole('alert')).toHaveCount(0);

  // Manage Billing: the local provider's test portal lists the subscription and links back here.
  await panel.getByRole('button', { name: 'Manage Billing' }).click();
  await expect(page).toHaveURL(/\/pay\/test\/portal\/[^/]+$/);
  await expect(page.getByRole('note')).toContainText('TEST MODE');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(/^Billing for your .+ account$/);
  await expect(page.getByRole('main')).toContainText(/WireWrite\s*active, renews or ends \d{4}-\d{2}-\d{2} \(UTC\)/);
  const back = page.getByRole('link', { name: /^Return to / });
  await expect(back).toHaveAttribute('href', /\/test-subscription$/);

  // Cancelling there says what it does first, then ends it; back on the test page the status shows the change.
  await page.getByRole('link', { name: 'Cancel WireWrite…' }).click();
  await expect(page.getByRole('main')).toContainText('Access ends immediately');
  await page.getByRole('button', { name: 'Cancel WireWrite now' }).click();
  await expect(page).toHaveURL(/\/pay\/test\/portal\/[^/]+$/);
  await expect(page.getByRole('main')).toContainText(/WireWrite\s*cancelled/);
  await expect(page.getByRole('button', { name: 'Cancel WireWrite now' })).toHaveCount(0);
  await back.click();
  await expect(page).toHaveURL(/\/test-subscription$/);
  await expect(describedValue(panel, 'Valid')).toHaveText('No');
  await expect(describedValue(panel, 'Status')).toHaveText('cancelled');
  await expect(describedValue(panel, 'Message')).toHaveText('Subscription cancelled');
});
