// Issue 33: the staff frame and the phone header. A staff journey through the side navigation
// (an order to its customer and back, the current page marked), the to-do counts leading to the
// filtered lists; and the public header at phone widths: the links behind "Menu", Escape closing
// it, and no page wider than the screen.
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { mainNav } from './auth-helpers';
import { signUpFreshBuyer } from './commerce-helpers';
import { buyCable, CABLE, removeAuthenticator, signInAdminWithTwoFactor } from './staff-helpers';

const staffNav = (page: Page) => page.getByRole('navigation', { name: 'Staff' });

async function expectCurrent(page: Page, label: string | RegExp) {
  await expect(staffNav(page).getByRole('link', { name: label })).toHaveAttribute('aria-current', 'page');
  await expect(staffNav(page).locator('[aria-current="page"]')).toHaveCount(1);
}

test.describe.configure({ mode: 'serial' });

test('staff: from an order to its customer and back through the side navigation; the to-do counts lead to the filtered lists', async ({ page, browser }) => {
  test.setTimeout(120_000);
  const orderNumber = await buyCable(browser, 'staff-nav-buyer');
  // An enquiry not yet handled, sent the way the Contact Sales form sends it.
  const enquiry = await page.request.post('/api/v1/contact', {
    data: { name: 'Mere Tane', email: `mere+${String(Date.now())}@example.co.nz`, company: 'Tane Roading', phone: '', message: 'Licences for our crew, please.' },
  });
  expect(enquiry.status()).toBe(201);
  await signInAdminWithTwoFactor(page);
  try {
    await page.goto('/admin');
    await expect(page.getByRole('heading', { level: 1, name: 'Admin Dashboard' })).toBeVisible();
    await expectCurrent(page, 'Dashboard');
    // No page links back to the dashboard by hand any more: the frame does.
    await expect(page.getByRole('link', { name: /Back to Admin Dashboard/ })).toHaveCount(0);

    // The counts: beside Orders and Enquiries in the navigation, and as the dashboard's to-do list.
    await expect(staffNav(page).getByRole('link', { name: /^Orders [\d,]+ to ship$/ })).toBeVisible();
    await expect(staffNav(page).getByRole('link', { name: /^Enquiries [\d,]+ not handled$/ })).toBeVisible();
    const todo = page.getByRole('region', { name: 'To do' });
    await todo.getByRole('link', { name: /^[\d,]+ enquir(y|ies) not handled$/ }).click();
    await expect(page).toHaveURL(/\/admin\/enquiries\?handled=false$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Enquiries' })).toBeVisible();
    await expect(page.getByText('Mere Tane').first()).toBeVisible();
    await expectCurrent(page, /^Enquiries/);

    await staffNav(page).getByRole('link', { name: 'Dashboard' }).click();
    await todo.getByRole('link', { name: /^[\d,]+ orders? to ship$/ }).click();
    await expect(page).toHaveURL(/\/admin\/orders\?to_ship=true$/);
    await expect(page.getByRole('checkbox', { name: 'To ship only' })).toBeChecked();
    await expectCurrent(page, /^Orders/);

    // The order, its customer, and back to the order from the customer's page.
    await page.getByRole('link', { name: orderNumber }).click();
    await expect(page.getByRole('heading', { level: 1, name: `Order ${orderNumber}` })).toBeVisible();
    await expectCurrent(page, /^Orders/);
    await page.getByRole('region', { name: 'Summary' }).getByRole('link', { name: /@/ }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Customer' })).toBeVisible();
    await expect(page.getByRole('region', { name: 'Profile' })).toContainText('Rangi Parata');
    await expectCurrent(page, 'Customers');
    await page.getByRole('region', { name: 'Orders' }).getByRole('link', { name: orderNumber }).click();
    await expect(page.getByRole('heading', { level: 1, name: `Order ${orderNumber}` })).toBeVisible();

    // The mail outbox's failed filter, as its count links it.
    await page.goto('/admin/mail?status=failed');
    await expect(page.getByRole('heading', { level: 1, name: 'Mail Outbox' })).toBeVisible();
    await expectCurrent(page, /^Mail/);

    // Below 1024 px the navigation folds behind "Staff menu"; Escape closes it and focus returns.
    await page.setViewportSize({ width: 800, height: 900 });
    const menu = page.getByRole('button', { name: 'Staff menu' });
    await expect(staffNav(page)).toBeHidden();
    await expect(menu).toHaveAttribute('aria-expanded', 'false');
    await menu.click();
    await expect(staffNav(page)).toBeVisible();
    await staffNav(page).getByRole('link', { name: 'Customers' }).focus();
    await page.keyboard.press('Escape');
    await expect(staffNav(page)).toBeHidden();
    await expect(menu).toBeFocused();
    await menu.click();
    await staffNav(page).getByRole('link', { name: 'Audit log' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Audit Log' })).toBeVisible();
    await expect(staffNav(page)).toBeHidden();
    await page.setViewportSize({ width: 1280, height: 900 });
  } finally {
    await removeAuthenticator(page);
  }
});

async function expectNoSidewaysScroll(page: Page, width: number) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
}

test('phone header at 390 px: the links behind Menu, Escape closes it, nothing scrolls sideways (also at 360 px)', async ({ page }) => {
  await signUpFreshBuyer(page, 'phone-header', 'Hemi Walker');
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/');
  const menu = page.getByRole('button', { name: 'Menu', exact: true });
  await expect(menu).toBeVisible();
  await expect(mainNav(page)).toBeHidden();
  await expect(menu).toHaveAttribute('aria-expanded', 'false');
  await expectNoSidewaysScroll(page, 390);

  await menu.click();
  await expect(menu).toHaveAttribute('aria-expanded', 'true');
  await expect(mainNav(page).getByRole('link', { name: 'Account' })).toBeVisible();
  await mainNav(page).getByRole('link', { name: 'Dashboard' }).focus();
  await page.keyboard.press('Escape');
  await expect(mainNav(page)).toBeHidden();
  await expect(menu).toBeFocused();

  await menu.click();
  await mainNav(page).getByRole('link', { name: 'Dashboard' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
  await expect(mainNav(page)).toBeHidden();
  await expectNoSidewaysScroll(page, 390);

  await page.goto(`/product/${CABLE.slug}`);
  await expect(page.getByRole('heading', { level: 1, name: CABLE.name })).toBeVisible();
  await expectNoSidewaysScroll(page, 390);

  await page.setViewportSize({ width: 360, height: 740 });
  await expectNoSidewaysScroll(page, 360);
  await page.goto('/');
  await expect(menu).toBeVisible();
  await expectNoSidewaysScroll(page, 360);
});
