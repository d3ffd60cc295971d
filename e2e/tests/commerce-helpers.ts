// Steps shared by the Commerce specs (docs/billing.md): a fresh signed-in buyer, the local test
// provider's hosted checkout (/pay/test/{sessionId}, marked TEST MODE), and what the dashboard and
// the product pages show. Everything is read the way a person reads it: roles, names and text.
import { expect, type Locator, type Page } from '@playwright/test';
import { signUp, uniqueEmail } from './auth-helpers';

/** A new account for every test (sign-up signs straight in): no test depends on another's orders. */
export async function signUpFreshBuyer(page: Page, label: string, fullName: string) {
  await page.goto('/');
  await signUp(page, { fullName, email: uniqueEmail(label), password: `Pw-${String(Date.now())}-${label}` });
}

/** The local provider's hosted checkout, after the store sent the browser there. */
export async function expectTestCheckoutPage(page: Page) {
  await expect(page).toHaveURL(/\/pay\/test\/[^/?]+(\?.*)?$/);
  await expect(page.getByRole('note')).toContainText('TEST MODE');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(/^Pay /);
}

export function payButton(page: Page, amount: string) {
  return page.getByRole('button', { name: `Pay ${amount}`, exact: true });
}

/** A shipping address as the TEST MODE page asks for it (physical products only). */
export interface TestAddress {
  name: string;
  line1: string;
  line2?: string;
  city: string;
  postalCode: string;
  country: string; // the option's label: 'New Zealand' | 'Australia'
  phone: string;
}

export const NZ_ADDRESS: TestAddress = {
  name: 'Ana Tupou',
  line1: '12 Kauri Street',
  city: 'Wellington',
  postalCode: '6011',
  country: 'New Zealand',
  phone: '021 555 0101',
};

/** Fills the TEST MODE page's shipping fields (a checkout with a physical product). */
export async function fillShippingAddress(page: Page, address: TestAddress = NZ_ADDRESS) {
  const fields = page.getByRole('group', { name: 'Shipping address' });
  await fields.getByLabel('Full name').fill(address.name);
  await fields.getByLabel('Address line 1').fill(address.line1);
  await fields.getByLabel('Address line 2 (optional)').fill(address.line2 ?? '');
  await fields.getByLabel('Town or city').fill(address.city);
  await fields.getByLabel('Postcode').fill(address.postalCode);
  await fields.getByLabel('Country').selectOption({ label: address.country });
  await fields.getByLabel('Phone (for the courier)').fill(address.phone);
}

export function declineButton(page: Page) {
  return page.getByRole('button', { name: 'Decline (simulate a declined card)' });
}

export function cancelButton(page: Page) {
  return page.getByRole('button', { name: 'Cancel and return to the store' });
}

/** The dashboard's confirmation after Pay; answers the order number it names. */
export async function expectPaymentConfirmed(page: Page): Promise<string> {
  await expect(page).toHaveURL(/\/dashboard\?checkout=[^&]+$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
  const confirmation = page.getByRole('status').filter({ hasText: 'Payment received' });
  // The page polls the checkout until the provider's events have marked the order paid.
  await expect(confirmation).toContainText(/Payment received — order \S+ confirmed/, { timeout: 10_000 });
  const text = (await confirmation.textContent()) ?? '';
  const match = /order (\S+) confirmed/.exec(text);
  if (!match?.[1]) throw new Error(`no order number in the confirmation: ${text}`);
  return match[1];
}

/** The value of one of the dashboard's three cards (Active Subscriptions, Total Orders, Account Type). */
export function dashboardCard(page: Page, label: string): Locator {
  return describedValue(page, label);
}

export function activeSubscriptionsPanel(page: Page) {
  return page.getByRole('region', { name: 'Active Subscriptions' });
}

export function orderHistory(page: Page) {
  return page.getByRole('region', { name: 'Order History' });
}

/** The number in the product page's Stock Status box: 'N Available' or 'Only N left'. */
export async function readProductPageStock(page: Page): Promise<number> {
  const box = page.getByRole('region', { name: 'Stock Status' });
  await expect(box).toContainText(/\d+ Available|Only \d+ left/);
  const text = (await box.textContent()) ?? '';
  const match = /(\d+) Available|Only (\d+) left/.exec(text);
  const value = match?.[1] ?? match?.[2];
  if (value === undefined) throw new Error(`no stock number in the Stock Status box: ${text}`);
  return Number(value);
}

/** The Stock Status text the product page shows for a tracked quantity (spec section 4, "Availability"). */
export function stockStatusText(quantity: number): string {
  if (quantity <= 0) return 'Out of Stock';
  if (quantity < 10) return `Only ${String(quantity)} left`;
  return `${String(quantity)} Available`;
}

/**
 * The NZ dates ('23 Nov 2027', as the pages write them) on which a subscription period started at
 * one of `startTimes` (milliseconds) ends: the server adds whole calendar months or years in UTC,
 * keeping the time of day and clamping to the month's last day. Formatted in the browser, so the
 * date reads exactly as the page writes it. Two start times (before and after paying) bracket the
 * server's own clock reading, which is in whole seconds (hence the second taken off the first).
 */
export async function expectedPeriodEndDates(page: Page, startTimes: [number, number], unit: 'month' | 'year', count: number): Promise<string[]> {
  const ends = [startTimes[0] - 1000, startTimes[1]].map((start) => {
    const date = new Date(start);
    const monthIndex = date.getUTCFullYear() * 12 + date.getUTCMonth() + (unit === 'year' ? 12 * count : count);
    const year = Math.floor(monthIndex / 12);
    const month = monthIndex % 12;
    const lastDay = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
    const end = new Date(start);
    end.setUTCFullYear(year, month, Math.min(date.getUTCDate(), lastDay));
    return end.getTime();
  });
  const dates = await page.evaluate(
    (instants) =>
      instants.map((instant) =>
        new Intl.DateTimeFormat('en-NZ', { timeZone: 'Pacific/Auckland', day: 'numeric', month: 'short', year: 'numeric' }).format(instant),
      ),
    ends,
  );
  return [...new Set(dates)];
}

/** The value a description list gives for `term` (a <dt>/<dd> pair in its own <div>). */
export function describedValue(scope: Page | Locator, term: string): Locator {
  // `has` is matched inside each <div>, so it must start from the page, not from `scope`.
  const page = 'page' in scope ? scope.page() : scope;
  return scope
    .locator('dl > div')
    .filter({ has: page.getByRole('term').getByText(term, { exact: true }) })
    .getByRole('definition');
}

export function exactly(texts: string[]): RegExp {
  return new RegExp(`^(${texts.map((text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|')})$`);
}
