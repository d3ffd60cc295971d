// Issue 25: axe-core (WCAG 2.2 AA) on every staff screen, signed in as an admin at the second level,
// with rows on the screen (a buyer's paid cable order, the seeded catalogue, an enterprise account
// made here) and its dialogs open too: no serious or critical finding. STAFF_SCREENS is the list:
// a new staff screen adds its entry (path, what shows it is ready, the dialogs to open).
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { uniqueEmail } from './auth-helpers';
import { expect, test } from './fixtures';
import { buyCable, removeAuthenticator, signInAdminWithTwoFactor } from './staff-helpers';

interface Context {
  orderNumber: string;
  orderId: string;
  /** The buyer's user id (their customer page). */
  customerId: string;
  company: string;
}

interface StaffDialog {
  name: string;
  /** Opens it and waits until it shows; axe runs next. */
  open: (page: Page, ctx: Context) => Promise<void>;
  /** Closes it again (Escape unless said). */
  close?: (page: Page) => Promise<void>;
}

interface StaffScreen {
  name: string;
  path: (ctx: Context) => string;
  ready: (page: Page, ctx: Context) => Promise<void>;
  dialogs?: StaffDialog[];
}

const heading = (page: Page, name: string) => expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
const dialog = (page: Page) => page.getByRole('dialog');
const closeWithEscape = async (page: Page) => {
  await page.keyboard.press('Escape');
  await expect(dialog(page)).toHaveCount(0);
};

export const STAFF_SCREENS: StaffScreen[] = [
  {
    name: 'dashboard',
    path: () => '/admin',
    ready: async (page) => {
      await heading(page, 'Admin Dashboard');
      await expect(page.getByRole('region', { name: 'Orders per day' })).toBeVisible();
      // The charts drew (uPlot, one canvas each) and the buyer's order is in today's count.
      await expect(page.locator('[data-chart] canvas')).toHaveCount(3);
      await expect(page.getByRole('region', { name: 'Orders per day' })).toContainText(/[1-9][\d,]* paid orders? in the last 30 days/);
      await expect(page.getByRole('region', { name: 'Revenue per month' })).toContainText(/NZD \$[\d,.]+, highest in /);
    },
    dialogs: [
      {
        name: 'the staff menu open below 1024 px',
        open: async (page) => {
          await page.setViewportSize({ width: 800, height: 900 });
          await page.getByRole('button', { name: 'Staff menu' }).click();
          await expect(page.getByRole('navigation', { name: 'Staff' })).toBeVisible();
        },
        close: async (page) => {
          await page.keyboard.press('Escape');
          await expect(page.getByRole('navigation', { name: 'Staff' })).toBeHidden();
          await page.setViewportSize({ width: 1280, height: 900 });
        },
      },
      {
        name: 'a chart table shown',
        open: async (page) => {
          await page.getByRole('region', { name: 'Orders per day' }).getByRole('button', { name: 'Show table' }).click();
          await expect(page.getByRole('region', { name: 'Orders per day' }).getByRole('table')).toBeVisible();
        },
        close: async () => {},
      },
    ],
  },
  {
    name: 'products',
    path: () => '/admin/products',
    ready: async (page) => {
      await heading(page, 'Product Management');
      await expect(page.getByRole('table', { name: 'Products' }).getByRole('row').nth(2)).toBeVisible();
    },
    dialogs: [
      {
        name: 'add product',
        open: async (page) => {
          await page.getByRole('button', { name: 'Add Product' }).click();
          await expect(dialog(page).getByRole('textbox', { name: 'Home Page Description' })).toBeVisible();
        },
      },
      {
        name: 'edit product',
        open: async (page) => {
          await page.getByRole('button', { name: 'Edit Product' }).first().click();
          await expect(dialog(page).getByRole('textbox', { name: 'Home Page Description' })).toBeVisible();
        },
      },
      {
        name: 'pricing plans',
        open: async (page) => {
          await page.getByRole('button', { name: 'Manage Pricing' }).first().click();
          await expect(dialog(page).getByRole('list', { name: 'Pricing plans' })).toBeVisible();
          await expect(dialog(page).getByRole('listitem').first()).toBeVisible();
        },
      },
    ],
  },
  {
    name: 'subscriptions',
    path: () => '/admin/subscriptions',
    ready: async (page) => {
      await heading(page, 'Subscription Management');
      await expect(page.getByRole('table')).toBeVisible();
    },
  },
  {
    name: 'orders',
    path: () => '/admin/orders',
    ready: async (page, ctx) => {
      await heading(page, 'Order Management');
      await expect(page.getByRole('link', { name: ctx.orderNumber })).toBeVisible();
    },
    dialogs: [
      {
        name: 'mark as shipped',
        open: async (page, ctx) => {
          await page.getByRole('button', { name: `Mark as shipped: ${ctx.orderNumber}` }).click();
          await expect(page.getByRole('dialog', { name: `Mark order ${ctx.orderNumber} as shipped` })).toBeVisible();
        },
        close: async (page) => {
          await dialog(page).getByRole('button', { name: 'Cancel' }).click();
          await expect(dialog(page)).toHaveCount(0);
        },
      },
    ],
  },
  {
    name: 'order details',
    path: (ctx) => `/admin/orders/${ctx.orderId}`,
    ready: async (page, ctx) => {
      await heading(page, `Order ${ctx.orderNumber}`);
      await expect(page.getByRole('region', { name: 'Items' })).toBeVisible();
    },
    dialogs: [
      {
        name: 'refund',
        open: async (page, ctx) => {
          await page.getByRole('button', { name: 'Refund', exact: true }).click();
          await expect(page.getByRole('dialog', { name: `Refund order ${ctx.orderNumber}` })).toBeVisible();
        },
      },
      {
        name: 'refund confirmation',
        open: async (page, ctx) => {
          await page.getByRole('button', { name: 'Refund', exact: true }).click();
          const refund = page.getByRole('dialog', { name: `Refund order ${ctx.orderNumber}` });
          await refund.getByRole('combobox', { name: /^Quantity to refund: / }).first().selectOption('1');
          await refund.getByRole('checkbox', { name: 'Return these items to stock' }).check();
          await refund.getByRole('button', { name: 'Continue' }).click();
          await expect(page.getByRole('dialog', { name: `Confirm refund of order ${ctx.orderNumber}` })).toContainText('returns 1 item to stock');
        },
        close: async (page) => {
          // Back to the form, then closed: nothing is refunded.
          await page.keyboard.press('Escape');
          await expect(page.getByRole('dialog', { name: /^Refund order / })).toBeVisible();
          await closeWithEscape(page);
        },
      },
      {
        name: 'cancel order',
        open: async (page, ctx) => {
          await page.getByRole('group', { name: 'Order actions' }).getByRole('button', { name: 'Cancel order' }).click();
          await expect(page.getByRole('dialog', { name: `Cancel order ${ctx.orderNumber}` })).toBeVisible();
        },
      },
      {
        name: 'shipping address',
        open: async (page, ctx) => {
          await page.getByRole('region', { name: 'Shipping' }).getByRole('button', { name: 'Change address' }).click();
          await expect(page.getByRole('dialog', { name: `Shipping address of order ${ctx.orderNumber}` }).getByRole('textbox', { name: /^Name/ })).not.toHaveValue('');
        },
      },
    ],
  },
  {
    name: 'packing slip',
    path: (ctx) => `/admin/orders/${ctx.orderId}/packing-slip`,
    ready: async (page, ctx) => {
      await expect(page.getByText(ctx.orderNumber).first()).toBeVisible();
    },
  },
  {
    name: 'audit log',
    path: () => '/admin/audit',
    ready: async (page) => {
      await heading(page, 'Audit Log');
      await expect(page.getByRole('table').getByRole('row').nth(1)).toBeVisible();
    },
  },
  {
    name: 'enterprise accounts',
    path: () => '/admin/enterprise',
    ready: async (page, ctx) => {
      await heading(page, 'Enterprise Account Management');
      await expect(page.getByText(ctx.company).first()).toBeVisible();
    },
    dialogs: [
      {
        name: 'account details',
        open: async (page, ctx) => {
          const account = page.getByRole('article', { name: ctx.company });
          await account.getByRole('button', { name: 'View Details' }).click();
          await expect(account.getByRole('button', { name: 'Hide Details' })).toHaveAttribute('aria-expanded', 'true');
        },
        close: async () => {},
      },
    ],
  },
  { name: 'WireWrite', path: () => '/admin/wirewrite', ready: (page) => heading(page, 'WireWrite Admin') },
  {
    name: 'promo codes',
    path: () => '/admin/wirewrite/promo-codes',
    ready: (page) => heading(page, 'Promo Codes'),
    dialogs: [
      {
        name: 'create code',
        open: async (page) => {
          await page.getByRole('button', { name: 'Create Code' }).click();
          await expect(page.getByRole('form', { name: 'Create promo code' })).toBeVisible();
        },
        close: async () => {},
      },
    ],
  },
  { name: 'WireWrite users', path: () => '/admin/wirewrite/users', ready: (page) => heading(page, 'Manage Users') },
  { name: 'certificates', path: () => '/admin/wirewrite/certificates', ready: (page) => heading(page, 'All Certificates') },
  { name: 'two-factor settings', path: () => '/admin/mfa', ready: (page) => heading(page, 'Security Settings') },
  // Issue 25's screens; their own specs (customers, staff-mail) also check them with their dialogs open.
  {
    name: 'customer details',
    path: (ctx) => `/admin/customers/${ctx.customerId}`,
    ready: async (page, ctx) => {
      await heading(page, 'Customer');
      await expect(page.getByRole('region', { name: 'Orders' }).getByRole('link', { name: ctx.orderNumber })).toBeVisible();
    },
    dialogs: [
      {
        name: 'send password recovery email',
        open: async (page) => {
          await page.getByRole('button', { name: 'Send password recovery email' }).click();
          await expect(page.getByRole('dialog', { name: 'Send password recovery email' })).toBeVisible();
        },
      },
    ],
  },
  {
    name: 'customers',
    path: () => '/admin/customers',
    ready: async (page) => {
      await heading(page, 'Customers');
      await expect(page.getByRole('table', { name: 'Customers' }).getByRole('row').nth(1)).toBeVisible();
    },
  },
  {
    name: 'mail outbox',
    path: () => '/admin/mail',
    ready: async (page) => {
      await heading(page, 'Mail Outbox');
      await expect(page.getByRole('table', { name: 'Mail outbox' }).getByRole('row').nth(1)).toBeVisible();
    },
  },
  { name: 'enquiries', path: () => '/admin/enquiries', ready: (page) => heading(page, 'Enquiries') },
  // The accountant's screens (their own spec, staff-invoices, also filters, exports and reads them).
  {
    name: 'invoices',
    path: () => '/admin/invoices',
    ready: async (page, ctx) => {
      await heading(page, 'Invoices');
      await expect(page.getByRole('table', { name: 'Invoices' }).getByRole('row').filter({ hasText: ctx.orderNumber }).first()).toBeVisible();
    },
  },
  {
    name: 'GST report',
    path: () => '/admin/reports/gst',
    ready: async (page) => {
      await heading(page, 'GST report');
      await expect(page.getByRole('region', { name: 'New Zealand dollars (NZD)' })).toBeVisible();
    },
  },
];

async function seriousFindings(page: Page, where: string): Promise<string[]> {
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa']).analyze();
  console.log(
    `axe ${where}: ${String(results.passes.length)} rules pass, ${String(results.violations.length)} violations` +
      (results.violations.length ? ` (${results.violations.map((v) => `${v.id}: ${v.impact ?? '?'}`).join(', ')})` : ''),
  );
  const serious = results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${where}: ${v.id} (${v.impact ?? ''}): ${v.nodes.map((node) => node.target.join(' ')).join('; ')}`);
  for (const line of serious) console.log(`  ${line}`);
  return serious;
}

test.describe.configure({ mode: 'serial' });

test('axe: no serious or critical violation on any staff screen or its dialogs', async ({ page, browser }) => {
  test.setTimeout(180_000);
  const orderNumber = await buyCable(browser, 'staff-axe-buyer');
  await signInAdminWithTwoFactor(page);
  try {
    // Rows for every list: the order's id, and an enterprise account.
    await page.goto('/admin/orders');
    const orderLink = page.getByRole('link', { name: orderNumber });
    const href = (await orderLink.getAttribute('href')) ?? '';
    const customerHref = (await page.getByRole('row').filter({ hasText: orderNumber }).getByRole('link', { name: /@/ }).getAttribute('href')) ?? '';
    const ctx: Context = {
      orderNumber,
      orderId: href.split('/').pop() ?? '',
      customerId: customerHref.split('/').pop() ?? '',
      company: `Axe Testing Ltd ${String(Date.now())}`,
    };
    await page.goto('/admin/enterprise');
    const form = page.getByRole('region', { name: 'Create Account' });
    await form.getByLabel(/Company Name/).fill(ctx.company);
    await form.getByLabel(/Billing Email/).fill('accounts@axe-testing.example');
    await form.getByLabel(/Admin Email/).fill(uniqueEmail('axe-enterprise-admin'));
    await form.getByRole('button', { name: 'Create Account' }).click();
    await expect(page.getByRole('article', { name: ctx.company })).toBeVisible();

    const findings: string[] = [];
    for (const screen of STAFF_SCREENS) {
      await test.step(screen.name, async () => {
        await page.goto(screen.path(ctx));
        await screen.ready(page, ctx);
        findings.push(...(await seriousFindings(page, screen.name)));
        for (const d of screen.dialogs ?? []) {
          await d.open(page, ctx);
          findings.push(...(await seriousFindings(page, `${screen.name} / ${d.name}`)));
          await (d.close ?? closeWithEscape)(page);
        }
      });
    }
    expect(findings).toEqual([]);
  } finally {
    await removeAuthenticator(page);
  }
});
