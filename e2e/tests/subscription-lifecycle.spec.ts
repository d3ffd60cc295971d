// Subscriptions that run like a subscription business (issue 31; docs/billing.md, "Subscription
// lifecycle"), as a subscriber lives them on the dashboard, against the real server and the local
// TEST MODE provider: (a) a renewal is declined in the test billing portal, the dashboard warns
// that the payment failed, and "Update payment method" leads back to the portal where "Renew now"
// pays it; (b) Change plan from monthly to yearly with its preview; (c) cancel at the end of the
// period ("Ends on"), then resume. Every test signs up its own subscriber.
//
// (b) and (c) use HHTraff Terminal: the seed's product with both a Monthly and a Yearly plan
// (server/seed/catalogue.sql); WireWrite has only Pro Monthly.
import type { Page } from '@playwright/test';
import { mainNav } from './auth-helpers';
import { expectNoSeriousAxeFindings } from './axe';
import { activeSubscriptionsPanel, expectPaymentConfirmed, expectTestCheckoutPage, payButton, signUpFreshBuyer } from './commerce-helpers';
import { expect, test } from './fixtures';

/** A date as the pages write it: "1 Mar 2026". */
const NZ_DATE = String.raw`\d{1,2} [A-Z][a-z]{2} \d{4}`;

/** The product's line in the dashboard's Active Subscriptions panel. */
function subscriptionLine(page: Page, productName: string) {
  return activeSubscriptionsPanel(page).getByRole('listitem').filter({ hasText: productName });
}

/** WireWrite Pro ($6/month) from /test-subscription, paid on the TEST MODE page; ends on the dashboard. */
async function subscribeToWireWritePro(page: Page) {
  await mainNav(page).getByRole('link', { name: 'Test Subscription' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Subscription Test' })).toBeVisible();
  await page.getByRole('region', { name: 'Subscription Status' }).getByRole('button', { name: 'Subscribe ($6/month)' }).click();
  await expectTestCheckoutPage(page);
  await expect(page.getByRole('main')).toContainText('WireWrite (Pro Monthly) × 1');
  await payButton(page, '$6.00').click();
  await expectPaymentConfirmed(page);
}

/** HHTraff Terminal on its Monthly plan ($15.00), through its checkout page; ends on the dashboard. */
async function subscribeToHhtraffMonthly(page: Page) {
  await page.goto('/checkout/hhtraff');
  const plans = page.getByRole('group', { name: 'Choose a pricing plan' });
  await expect(plans.getByRole('radio', { name: /Monthly/ })).toBeChecked();
  await page.getByRole('button', { name: 'Continue to Payment' }).click();
  await expectTestCheckoutPage(page);
  await expect(page.getByRole('main')).toContainText('HHTraff Terminal (Monthly) × 1');
  await payButton(page, '$15.00').click();
  await expectPaymentConfirmed(page);
}

/** The local provider's TEST MODE billing portal, opened from the dashboard by `button`. */
async function openTestPortal(page: Page, button: string, scope = page.getByRole('main')) {
  await scope.getByRole('button', { name: button }).click();
  await expect(page).toHaveURL(/\/pay\/test\/portal\/[^/]+$/);
  await expect(page.getByRole('note')).toContainText('TEST MODE');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(/^Billing for your .+ account$/);
}

async function returnFromPortal(page: Page) {
  await page.getByRole('link', { name: /^Return to / }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
}

test('a declined renewal makes the subscription past due; Update payment method and Renew now restore it', async ({ page }) => {
  await signUpFreshBuyer(page, 'past-due', 'Aroha Whetu');
  await subscribeToWireWritePro(page);
  const line = subscriptionLine(page, 'WireWrite');
  await expect(line).toContainText('Active');
  await expect(line.getByRole('alert')).toHaveCount(0);

  // The card will decline at the next renewal (set in the TEST MODE portal): nothing happens now.
  await openTestPortal(page, 'Manage billing');
  await page.getByRole('button', { name: 'Decline the next renewal' }).click();
  await expect(page).toHaveURL(/\/pay\/test\/portal\/[^/]+$/);
  await expect(page.getByText('The next renewal will be declined.')).toBeVisible();
  await returnFromPortal(page);
  await expect(line).toContainText('Active');
  await expect(line.getByRole('alert')).toHaveCount(0);
  // Renew now plays that renewal at once: declined, as a card that fails at renewal would be.
  await openTestPortal(page, 'Manage billing');
  await page.getByRole('button', { name: 'Renew now' }).click();
  await expect(page).toHaveURL(/\/pay\/test\/portal\/[^/]+$/);
  await returnFromPortal(page);

  // Within the grace period: the warning says by when to pay; access stays meanwhile.
  await expect(line).toContainText('Past due');
  const warning = line.getByRole('alert');
  await expect(warning).toHaveText(new RegExp(`^Payment failed: update your payment method by ${NZ_DATE} to keep access\\.$`));
  await expectNoSeriousAxeFindings(page, 'dashboard with a past-due subscription');

  // Update payment method: the same portal, where the card is mended and the overdue renewal paid.
  await openTestPortal(page, 'Update payment method', line);
  await page.getByRole('button', { name: 'Let the next renewal succeed' }).click();
  await page.getByRole('button', { name: 'Renew now' }).click();
  await expect(page).toHaveURL(/\/pay\/test\/portal\/[^/]+$/);
  await returnFromPortal(page);

  await expect(line).toContainText('Active');
  await expect(line).not.toContainText('Past due');
  await expect(line.getByRole('alert')).toHaveCount(0);
  await expect(line.getByRole('button', { name: 'Update payment method' })).toHaveCount(0);
});

test('Change plan from monthly to yearly: the preview says what is due now, and the dashboard shows the yearly plan', async ({ page }) => {
  await signUpFreshBuyer(page, 'plan-changer', 'Rawiri Paki');
  await subscribeToHhtraffMonthly(page);
  const line = subscriptionLine(page, 'HHTraff Terminal');
  await expect(line).toContainText('Monthly · $15.00 per month');

  await line.getByRole('button', { name: 'Change plan' }).click();
  const dialog = page.getByRole('dialog', { name: 'Change plan' });
  const choices = dialog.getByRole('group', { name: 'Choose a new plan' });
  // Only the other plans of the same product and currency.
  await expect(choices.getByRole('radio')).toHaveCount(1);
  await expect(dialog.getByRole('button', { name: 'Confirm plan change' })).toBeDisabled();
  await choices.getByRole('radio', { name: 'Yearly · $150.00 per year' }).check();

  const preview = dialog.getByRole('group', { name: 'Plan change preview' });
  await expect(preview).toContainText(/Due now: \$\d+\.\d{2}/);
  await expect(preview).toContainText(new RegExp(`Then \\$150\\.00 from ${NZ_DATE}`));
  await expectNoSeriousAxeFindings(page, 'dashboard with the Change plan dialog and its preview');

  await dialog.getByRole('button', { name: 'Confirm plan change' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(activeSubscriptionsPanel(page).getByRole('status')).toHaveText(/You are now on the Yearly plan\./);
  await expect(line).toContainText('Yearly · $150.00 per year');
  await expect(line).not.toContainText('Monthly · $15.00 per month');

  // The server's answer, not the page's: a reload shows the same plan.
  await page.reload();
  await expect(subscriptionLine(page, 'HHTraff Terminal')).toContainText('Yearly · $150.00 per year');
});

test('cancel at the end of the period says Ends on the date access stays until, and Resume undoes it', async ({ page }) => {
  await signUpFreshBuyer(page, 'canceller', 'Kiri Tane');
  await subscribeToHhtraffMonthly(page);
  const line = subscriptionLine(page, 'HHTraff Terminal');
  await expect(line).toContainText(/Expires/);

  await line.getByRole('button', { name: 'Cancel subscription' }).click();
  const dialog = page.getByRole('dialog', { name: 'Cancel subscription' });
  await expect(dialog).toContainText('Access ends immediately. No refund is made.');
  const keepsAccess = dialog.getByText(new RegExp(`^You keep access until ${NZ_DATE}\\.$`));
  await expect(keepsAccess).toBeVisible();
  const until = /until (.+)\.$/.exec((await keepsAccess.textContent()) ?? '')?.[1] ?? '';
  await expectNoSeriousAxeFindings(page, 'dashboard with the Cancel subscription dialog');
  await dialog.getByRole('button', { name: 'Cancel at the end of the period' }).click();
  await expect(dialog).toHaveCount(0);

  await expect(line).toContainText(`Ends on ${until}`);
  await expect(line).not.toContainText('Expires');
  await expect(line.getByRole('button', { name: 'Resume subscription' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Past subscriptions' })).toHaveCount(0);

  await line.getByRole('button', { name: 'Resume subscription' }).click();
  const resume = page.getByRole('dialog', { name: 'Resume subscription' });
  await expect(resume).toContainText(`Your subscription will renew on ${until}.`);
  await resume.getByRole('button', { name: 'Resume subscription' }).click();
  await expect(resume).toHaveCount(0);

  await expect(line).not.toContainText('Ends on');
  await expect(line).toContainText(/Expires/);
  await expect(line.getByRole('button', { name: 'Cancel subscription' })).toBeVisible();
  await expect(line.getByRole('button', { name: 'Resume subscription' })).toHaveCount(0);
});
