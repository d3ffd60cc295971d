// The back office (issue 11; spec section 2 "Admin ...", sections 4, 5, 8, 9) against the real
// server, in Chromium: the admin signs in through the TOTP step, creates a product with rich text
// and an uploaded image, adds two pricing plans, sees it on the landing page and its product page,
// marks a buyer's order shipped and reads its history, cancels another buyer's order (behind its
// confirmation) while they are still on the payment page (issue 16: the page closes, the stock comes
// back), finds all of it in the audit log, and refunds part of the first order's line with its item
// restocked (issue 23).
// The catalogue is shared with the other specs (the landing page counts five products), so the
// product is deleted again at the end, and the admin's authenticator is removed (afterAll does
// both through the API if the journey stopped half way).
import { deflateSync } from 'node:zlib';
import type { APIRequestContext, Page } from '@playwright/test';
import { adminAccount, expectSignedIn, mainNav, signOut, signUp, submitSignIn, uniqueEmail } from './auth-helpers';
import { expectPaymentConfirmed, expectTestCheckoutPage, fillShippingAddress, readProductPageStock, signUpFreshBuyer } from './commerce-helpers';
import { expect, test } from './fixtures';
import { freshCode } from './totp';

test.describe.configure({ mode: 'serial' });

const CABLE = { slug: 'usb-rs232-cable', name: 'USB to RS-232 Serial Cable' };

// ---- A tiny PNG made here (1×1, one teal pixel), so the upload needs no fixture file. ----------

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of bytes) crc = CRC_TABLE[(crc ^ byte) & 0xff]! ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

function tinyPng(): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(1, 0); // width
  header.writeUInt32BE(1, 4); // height
  header[8] = 8; // bit depth
  header[9] = 2; // colour type: RGB
  const scanline = Buffer.from([0, 0x14, 0xb8, 0xa6]); // filter 0, then R G B
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', header),
    pngChunk('IDAT', deflateSync(scanline)),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

// ---- What the journey made, for the clean-up --------------------------------------------------

const state: { secret: string | null; lastStep: number; productId: string | null; productDeleted: boolean; factorRemoved: boolean } = {
  secret: null,
  lastStep: -1,
  productId: null,
  productDeleted: false,
  factorRemoved: false,
};

interface TokenAnswer {
  access_token: string;
  user?: { factors?: { id: string; factor_type: string; status: string }[] };
}

/** Best effort through the API: delete the product and remove the authenticator if the journey did not. */
async function cleanUp(request: APIRequestContext): Promise<void> {
  if ((state.productDeleted || !state.productId) && (state.factorRemoved || !state.secret)) return;
  const admin = adminAccount();
  const signIn = await request.post('/auth/v1/token?grant_type=password', { data: { email: admin.email, password: admin.password } });
  if (!signIn.ok()) return;
  let session = (await signIn.json()) as TokenAnswer;
  const factors = (session.user?.factors ?? []).filter((factor) => factor.factor_type === 'totp' && factor.status === 'verified');
  if (factors.length > 0 && state.secret) {
    const factor = factors[0]!;
    const auth = { Authorization: `Bearer ${session.access_token}` };
    const challenge = await request.post(`/auth/v1/factors/${factor.id}/challenge`, { headers: auth, data: {} });
    const { id: challengeId } = (await challenge.json()) as { id: string };
    const { code } = await freshCode(state.secret, state.lastStep);
    const verified = await request.post(`/auth/v1/factors/${factor.id}/verify`, { headers: auth, data: { challenge_id: challengeId, code } });
    if (verified.ok()) session = (await verified.json()) as TokenAnswer;
  }
  const auth = { Authorization: `Bearer ${session.access_token}` };
  if (state.productId && !state.productDeleted) await request.delete(`/api/v1/admin/products/${state.productId}`, { headers: auth });
  for (const factor of factors) await request.delete(`/auth/v1/factors/${factor.id}`, { headers: auth });
}

test.afterAll(async ({ request }) => {
  test.setTimeout(90_000);
  await cleanUp(request);
});

// ---- Steps ------------------------------------------------------------------------------------

/** Enables two-factor on /admin/mfa with a code from the secret on the page; answers the secret. */
async function enrolAuthenticator(page: Page): Promise<string> {
  await mainNav(page).getByRole('link', { name: 'MFA' }).click();
  const section = page.getByRole('region', { name: 'Two-Factor Authentication' });
  await section.getByRole('button', { name: 'Enable Two-Factor Authentication' }).click();
  const secretBox = page.getByTestId('mfa-secret');
  await expect(secretBox).toHaveText(/^[A-Z2-7]{16,}=*$/);
  const secret = (await secretBox.textContent())!.trim();
  state.secret = secret;
  const enrolment = await freshCode(secret);
  state.lastStep = enrolment.step;
  await section.getByLabel(/6-digit code/).fill(enrolment.code);
  await section.getByRole('button', { name: 'Enable MFA' }).click();
  await expect(section.getByText('Enabled', { exact: true })).toBeVisible();
  return secret;
}

/** Password, then the code step with a code the server has not seen. */
async function signInWithCode(page: Page, secret: string) {
  const admin = adminAccount();
  await submitSignIn(page, admin.email, admin.password);
  const codeStep = page.getByRole('dialog', { name: 'Two-Factor Authentication' });
  await expect(codeStep).toBeVisible();
  const next = await freshCode(secret, state.lastStep);
  state.lastStep = next.step;
  await codeStep.getByLabel('Verification code').fill(next.code);
  await codeStep.getByRole('button', { name: 'Verify' }).click();
  await expectSignedIn(page);
}

function productRow(page: Page, name: string) {
  return page.getByRole('table', { name: 'Products' }).getByRole('row').filter({ hasText: name });
}

/** Buys one cable as a new buyer in a browser context of its own; answers the order number. */
async function buyCable(page: Page): Promise<string> {
  // The visitor's pages never load the admin code or the editor (they are lazy chunks).
  const scripts: string[] = [];
  page.on('request', (request) => {
    if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname);
  });
  await signUpFreshBuyer(page, 'backoffice-buyer', 'Mere Tane');
  await page.goto(`/product/${CABLE.slug}`);
  await expect(page.getByRole('heading', { level: 1, name: CABLE.name })).toBeVisible();
  expect(scripts.length).toBeGreaterThan(0);
  expect(scripts.filter((path) => /Quill|ProductManagement|AdminDashboard/i.test(path))).toEqual([]);
  await page.getByRole('link', { name: 'Buy Now' }).click();
  await page.getByRole('button', { name: 'Continue to Payment' }).click();
  await expectTestCheckoutPage(page);
  await fillShippingAddress(page);
  await page.getByRole('button', { name: /^Pay \$/ }).click();
  return expectPaymentConfirmed(page);
}

test('an admin runs the back office: product with rich text, image and plans; an order’s status; the audit log', async ({ page, browser }) => {
  // Two or three TOTP time steps of waiting (30 s each) on top of the browsing.
  test.setTimeout(240_000);
  const admin = adminAccount();
  const stamp = String(Date.now());
  const name = `E2E Serial Logger ${stamp}`;
  const slug = `e2e-serial-logger-${stamp}`;

  // A buyer's paid order for the order screens.
  const buyerContext = await browser.newContext();
  const orderNumber = await buyCable(await buyerContext.newPage());
  await buyerContext.close();

  await test.step('sign in as the admin through the TOTP step', async () => {
    await page.goto('/');
    await submitSignIn(page, admin.email, admin.password);
    await expectSignedIn(page);
    const secret = await enrolAuthenticator(page);
    await signOut(page);
    await signInWithCode(page, secret);
    await expect(mainNav(page).getByRole('link', { name: 'Admin' })).toBeVisible();
  });

  await test.step('the dashboard shows the six cards and the quick actions', async () => {
    await mainNav(page).getByRole('link', { name: 'Admin' }).click();
    await expect(page).toHaveURL(/\/admin$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Admin Dashboard' })).toBeVisible();
    const stats = page.getByRole('region', { name: 'Statistics' });
    for (const label of ['Total Users', 'Total Products', 'Active Subscriptions', 'Total Orders', 'Enterprise Accounts', 'Recent Revenue (30 days)']) {
      await expect(stats.getByText(label, { exact: true })).toBeVisible();
    }
    await expect(stats.getByText(/^All time: \$[\d,]+\.\d{2}$/)).toBeVisible();
    const actions = page.getByRole('navigation', { name: 'Quick actions' });
    await expect(actions.getByRole('link')).toHaveText(['Manage Products', 'Manage Subscriptions', 'Manage Orders', 'Invoices', 'Enterprise Accounts', 'WireWrite Admin', 'Customers', 'Audit Log', 'Mail Outbox', 'Enquiries']);
  });

  await test.step('create a product with rich text, an uploaded icon and a feature', async () => {
    await page.getByRole('navigation', { name: 'Quick actions' }).getByRole('link', { name: 'Manage Products' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Product Management' })).toBeVisible();
    await page.getByRole('button', { name: 'Add Product' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add New Product' });
    await dialog.getByRole('textbox', { name: /^Name/ }).fill(name);
    // Typed with capitals and spaces: the field keeps it lower case with hyphens.
    await dialog.getByRole('textbox', { name: /^Slug/ }).fill(`E2E Serial Logger ${stamp}`);
    await expect(dialog.getByRole('textbox', { name: /^Slug/ })).toHaveValue(slug);

    // The real editor (Quill), loaded with the admin screens only.
    const home = dialog.getByRole('textbox', { name: 'Home Page Description' });
    await home.click();
    await page.keyboard.type('Captures every byte. ');
    await page.keyboard.press('Control+b');
    await page.keyboard.type('Bold claim');
    await page.keyboard.press('Control+b');
    await expect(home.locator('strong')).toHaveText('Bold claim');
    const detail = dialog.getByRole('textbox', { name: 'Detail Page Description' });
    await detail.click();
    await page.keyboard.type('The detail page text.');
    // The spec's toolbar: headings 1-3, bold, italic, underline, strike, ordered and bullet lists, link, clean.
    const toolbar = dialog.getByRole('toolbar').first();
    for (const tool of ['bold', 'italic', 'underline', 'strike', 'list: ordered', 'list: bullet', 'link', 'clean']) {
      await expect(toolbar.getByRole('button', { name: tool, exact: true })).toBeVisible();
    }
    await toolbar.locator('.ql-header .ql-picker-label').click();
    // Heading 1, 2, 3 and Normal; a second click closes the list (Escape would close the dialog).
    await expect(toolbar.locator('.ql-header .ql-picker-item')).toHaveCount(4);
    await toolbar.locator('.ql-header .ql-picker-label').click();

    const feature = dialog.getByRole('textbox', { name: 'New Feature' });
    await feature.fill('  Timestamped capture  ');
    await feature.press('Enter');
    await expect(dialog.getByRole('list', { name: 'Features' })).toContainText('Timestamped capture');

    await dialog.getByRole('button', { name: 'Select Image for Icon URL' }).click();
    const picker = page.getByRole('dialog', { name: 'Select Image from Public Folder' });
    const folders = picker.getByRole('group', { name: 'Folders' });
    await expect(folders.getByRole('button')).toHaveText(['All Products', 'bluetooth', 'hit', 'hhtraff', 'wirewrite', 'usb-cable', 'uploads']);
    const uploaded = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/v1/admin/images' && r.request().method() === 'POST');
    await picker.getByLabel('Upload Image').setInputFiles({ name: 'e2e-icon.png', mimeType: 'image/png', buffer: tinyPng() });
    expect((await uploaded).status()).toBe(201);
    const form = page.getByRole('dialog', { name: 'Add New Product' });
    await expect(form.getByRole('textbox', { name: 'Icon URL' })).toHaveValue(/^\/uploads\/[0-9a-f]{64}\.png$/);
    await expect(form.getByRole('img', { name: 'Icon URL preview' })).toBeVisible();

    const created = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/v1/admin/products' && r.request().method() === 'POST');
    await form.getByRole('button', { name: 'Create Product' }).click();
    const answer = await created;
    expect(answer.status()).toBe(201);
    const body = (await answer.json()) as { product: { id: string; slug: string; description: string } };
    state.productId = body.product.id;
    expect(body.product.slug).toBe(slug);
    expect(body.product.description).toContain('<strong>Bold claim</strong>');

    const success = page.getByRole('status').filter({ hasText: 'Product created successfully!' });
    await expect(success).toBeVisible();
    await expect(success).toBeHidden({ timeout: 5_000 });
    const row = productRow(page, name);
    await expect(row).toContainText(slug);
    await expect(row).toContainText('Subscription');
    await expect(row.getByRole('button', { name: /^Active/ })).toBeVisible();
  });

  await test.step('add two pricing plans, the price stored ×100 exactly', async () => {
    await productRow(page, name).getByRole('button', { name: 'Manage Pricing' }).click();
    const dialog = page.getByRole('dialog', { name: `Pricing Plans - ${name}` });
    const plans: { name: string; price: string; unit: 'month' | 'year'; minor: number }[] = [
      { name: 'Monthly', price: '19.99', unit: 'month', minor: 1999 },
      { name: 'Yearly', price: '199.00', unit: 'year', minor: 19900 },
    ];
    for (const [index, plan] of plans.entries()) {
      const form = dialog.getByRole('form', { name: 'Add New Plan' });
      await form.getByRole('textbox', { name: /^Plan Name/ }).fill(plan.name);
      await form.getByRole('spinbutton', { name: /^Price/ }).fill(plan.price);
      await form.getByRole('combobox', { name: 'Currency' }).selectOption('NZD');
      await form.getByRole('combobox', { name: 'Billing Every' }).selectOption('1');
      await form.getByRole('combobox', { name: 'Billing Unit' }).selectOption(plan.unit);
      await form.getByRole('spinbutton', { name: 'Sort Order' }).fill(String(index));
      const saved = page.waitForResponse((r) => /\/api\/v1\/admin\/products\/[^/]+\/plans$/.test(new URL(r.url()).pathname) && r.request().method() === 'POST');
      await form.getByRole('button', { name: 'Add Plan' }).click();
      const answer = await saved;
      expect(answer.status()).toBe(201);
      expect(JSON.parse(answer.request().postData() ?? '{}')).toMatchObject({ price: plan.price });
      expect(((await answer.json()) as { plan: { price_amount: number } }).plan.price_amount).toBe(plan.minor);
      await expect(dialog.getByRole('status')).toHaveText(/Pricing plan saved successfully!/);
    }
    await expect(dialog.getByRole('listitem', { name: 'Monthly' })).toContainText('$19.99 NZD per month');
    await expect(dialog.getByRole('listitem', { name: 'Yearly' })).toContainText('$199.00 NZD per year');
    await dialog.getByRole('button', { name: 'Close' }).click();
    // The Plans column counts them.
    await expect(productRow(page, name).getByRole('cell').nth(4)).toHaveText('2');
  });

  await test.step('the landing page and the product page show it', async () => {
    await page.goto('/');
    const card = page.getByRole('article', { name });
    await expect(card).toContainText('Captures every byte.');
    await expect(card.locator('strong')).toHaveText('Bold claim');
    await expect(card.getByRole('list', { name: `${name} features` })).toContainText('Timestamped capture');
    const icon = card.locator('img').first();
    await expect(icon).toHaveAttribute('src', /^\/uploads\/[0-9a-f]{64}\.png$/);
    const image = await page.request.get((await icon.getAttribute('src'))!);
    expect(image.status()).toBe(200);
    expect(image.headers()['content-type']).toBe('image/png');
    expect(image.headers()['cache-control']).toContain('immutable');

    await page.goto(`/product/${slug}`);
    await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
    await expect(page.getByText('The detail page text.')).toBeVisible();
    const pricing = page.getByRole('region', { name: 'Pricing' });
    await expect(pricing).toContainText('Monthly');
    await expect(pricing).toContainText('$19.99 per month');
    await expect(pricing).toContainText('$199.00 per year');
  });

  let orderId = '';
  await test.step('mark the buyer’s order shipped from its row and see it in its history', async () => {
    await page.goto('/admin/orders');
    await expect(page.getByRole('heading', { level: 1, name: 'Order Management' })).toBeVisible();
    await page.getByRole('searchbox', { name: 'Search orders' }).fill(orderNumber);
    await page.getByRole('searchbox', { name: 'Search orders' }).press('Enter');
    const row = page.getByRole('table', { name: 'Orders' }).getByRole('row').filter({ hasText: orderNumber });
    await expect(row).toHaveCount(1);
    await expect(row).toContainText('Paid');
    await expect(row).toContainText('$49.00');
    // No free status choice: the row offers only what a paid cable order allows.
    await expect(row.getByRole('combobox')).toHaveCount(0);
    await expect(row.getByRole('button', { name: `Mark as completed: ${orderNumber}` })).toBeVisible();
    const patched = page.waitForResponse((r) => /\/api\/v1\/admin\/orders\/[^/]+$/.test(new URL(r.url()).pathname) && r.request().method() === 'PATCH');
    await row.getByRole('button', { name: `Mark as shipped: ${orderNumber}` }).click();
    // Mark as shipped asks for the carrier and tracking number (both optional).
    await page.getByRole('dialog', { name: `Mark order ${orderNumber} as shipped` }).getByRole('button', { name: 'Mark as shipped' }).click();
    expect((await patched).status()).toBe(200);
    await expect(page.getByRole('status').filter({ hasText: `Order ${orderNumber} is now Shipped.` })).toBeVisible();
    await expect(row.locator('span', { hasText: /^Shipped$/ })).toBeVisible();

    await row.getByRole('link', { name: orderNumber }).click();
    await expect(page).toHaveURL(/\/admin\/orders\/[0-9a-f-]{36}$/);
    orderId = new URL(page.url()).pathname.split('/').pop()!;
    await expect(page.getByRole('heading', { level: 1, name: `Order ${orderNumber}` })).toBeVisible();
    await expect(page.getByRole('table', { name: 'Items' })).toContainText(CABLE.name);
    const history = page.getByRole('table', { name: 'Status History' });
    const last = history.getByRole('row').last();
    await expect(last).toContainText('Paid → Shipped');
    await expect(last).toContainText('Staff');
    await expect(last).toContainText(admin.email);
  });

  await test.step('cancel an order while its buyer is still on the payment page: stock back at once, the page closed, the history says who', async () => {
    // Issue 16: a staff cancel expires the open checkout and gives its reserved stock back.
    const buyerContext = await browser.newContext();
    const buyer = await buyerContext.newPage();
    const email = uniqueEmail('cancel-buyer');
    await buyer.goto('/');
    await signUp(buyer, { fullName: 'Aroha Ngata', email, password: `Pw-${stamp}-cancel` });
    await buyer.goto(`/product/${CABLE.slug}`);
    const before = await readProductPageStock(buyer);
    await buyer.getByRole('link', { name: 'Buy Now' }).click();
    await buyer.getByRole('button', { name: 'Continue to Payment' }).click();
    await expectTestCheckoutPage(buyer);

    await page.goto('/admin/orders');
    await page.getByRole('searchbox', { name: 'Search orders' }).fill(email);
    await page.getByRole('searchbox', { name: 'Search orders' }).press('Enter');
    const row = page.getByRole('table', { name: 'Orders' }).getByRole('row').filter({ hasText: email });
    await expect(row).toHaveCount(1);
    await expect(row.locator('span', { hasText: /^Pending$/ })).toBeVisible();
    // Cancelling is on the order's page, behind a confirmation that says what it does.
    await row.getByRole('link').first().click();
    await expect(page).toHaveURL(/\/admin\/orders\/[0-9a-f-]{36}$/);
    const actions = page.getByRole('group', { name: 'Order actions' });
    await expect(actions.getByRole('button')).toHaveText(['Mark as paid', 'Cancel order']);
    await actions.getByRole('button', { name: 'Cancel order' }).click();
    const confirm = page.getByRole('dialog', { name: /^Cancel order / });
    await expect(confirm).toContainText('Cancels the order, returns its items to stock and closes its checkout.');
    const patched = page.waitForResponse((r) => /\/api\/v1\/admin\/orders\/[^/]+$/.test(new URL(r.url()).pathname) && r.request().method() === 'PATCH');
    await confirm.getByRole('button', { name: 'Cancel order' }).click();
    expect((await patched).status()).toBe(200);
    await expect(page.getByRole('status').filter({ hasText: /is now Cancelled\./ })).toBeVisible();
    await expect(page.getByRole('region', { name: 'Summary' }).locator('span', { hasText: /^Cancelled$/ })).toBeVisible();
    const last = page.getByRole('table', { name: 'Status History' }).getByRole('row').last();
    await expect(last).toContainText('Pending → Cancelled');
    await expect(last).toContainText('Staff');
    await expect(last).toContainText(admin.email);

    // The buyer's payment page is closed: paying is no longer offered.
    await buyer.reload();
    await expect(buyer.getByRole('alert')).toContainText('This checkout has expired. Nothing was charged.');
    await expect(buyer.getByRole('button', { name: /^Pay \$/ })).toHaveCount(0);
    // The reserved cable is back in stock (once: the count is what it was before the checkout).
    await expect
      .poll(async () => {
        await buyer.goto(`/product/${CABLE.slug}`);
        return readProductPageStock(buyer);
      })
      .toBe(before);
    await buyerContext.close();
  });

  await test.step('find the changes in the audit log', async () => {
    await page.goto('/admin');
    await page.getByRole('navigation', { name: 'Quick actions' }).getByRole('link', { name: 'Audit Log' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Audit Log' })).toBeVisible();
    const filters = page.getByRole('search', { name: 'Filter the audit log' });
    const table = page.getByRole('table', { name: 'Audit log' });

    await filters.getByRole('textbox', { name: 'Target' }).fill(state.productId!);
    await filters.getByRole('button', { name: 'Apply Filters' }).click();
    await expect(table.getByRole('row').filter({ hasText: state.productId! }).first()).toBeVisible();
    await expect(table.getByRole('row').filter({ hasText: state.productId! }).first()).toContainText(admin.email);

    await filters.getByRole('textbox', { name: 'Target' }).fill(orderId);
    await filters.getByRole('button', { name: 'Apply Filters' }).click();
    const orderEntry = table.getByRole('row').filter({ hasText: orderId }).first();
    await expect(orderEntry).toContainText(admin.email);
    await orderEntry.getByText('Show changes').click();
    await expect(orderEntry).toContainText('shipped');

    await filters.getByRole('button', { name: 'Clear' }).click();
    await filters.getByRole('textbox', { name: 'Actor' }).fill(admin.email);
    await filters.getByRole('button', { name: 'Apply Filters' }).click();
    // The two plans, the product and the order, at least.
    await expect(table.getByRole('row')).not.toHaveCount(1);
    expect(await table.getByRole('row').count()).toBeGreaterThanOrEqual(5);
  });

  await test.step('refund part of the buyer’s order: the dialog prefilled with the remainder, the refund listed, the stock back', async () => {
    // Issue 23: a partial refund through the local provider (immediate), with the items restocked.
    await page.goto(`/product/${CABLE.slug}`);
    const stockBefore = await readProductPageStock(page);
    await page.goto(`/admin/orders/${orderId}`);
    await expect(page.getByRole('heading', { level: 1, name: `Order ${orderNumber}` })).toBeVisible();
    await page.getByRole('group', { name: 'Order actions' }).getByRole('button', { name: 'Refund' }).click();
    const dialog = page.getByRole('dialog', { name: `Refund order ${orderNumber}` });
    const amount = dialog.getByRole('textbox', { name: /Amount/ });
    await expect(amount).toHaveValue('49.00');
    // The cable's line, back to stock, for less than its price.
    await dialog.getByRole('combobox', { name: `Quantity to refund: ${CABLE.name}` }).selectOption('1');
    await expect(amount).toHaveValue('49.00');
    await amount.fill('10.50');
    await dialog.getByRole('textbox', { name: 'Reason' }).fill('Scratched case');
    await dialog.getByRole('checkbox', { name: 'Return these items to stock' }).check();
    await dialog.getByRole('button', { name: 'Continue' }).click();
    const confirm = page.getByRole('dialog', { name: `Confirm refund of order ${orderNumber}` });
    await expect(confirm).toContainText('Refunds $10.50 to the customer, returns 1 item to stock, emails the customer.');
    const refunded = page.waitForResponse((r) => /\/api\/v1\/admin\/orders\/[^/]+\/refunds$/.test(new URL(r.url()).pathname) && r.request().method() === 'POST');
    await confirm.getByRole('button', { name: 'Refund' }).click();
    expect((await refunded).status()).toBe(200);
    await expect(page.getByRole('status').filter({ hasText: `Refunded $10.50 of order ${orderNumber}.` })).toBeVisible();
    await expect(dialog).toHaveCount(0);
    await expect(page.getByText('Refunded: $10.50')).toBeVisible();
    const refunds = page.getByRole('table', { name: 'Refunds' });
    await expect(refunds.getByRole('row').nth(1)).toContainText('$10.50');
    await expect(refunds.getByRole('row').nth(1)).toContainText('Scratched case');
    await expect(refunds.getByRole('row').nth(1)).toContainText(admin.email);
    // A partial refund leaves the status as it was and is a history row naming what went back; the rest can still be refunded.
    await expect(page.getByRole('table', { name: 'Status History' }).getByRole('row').last()).toContainText(`Refunded 1 x ${CABLE.name}, $10.50`);
    await page.getByRole('group', { name: 'Order actions' }).getByRole('button', { name: 'Refund' }).click();
    await expect(page.getByRole('dialog', { name: `Refund order ${orderNumber}` }).getByRole('textbox', { name: /Amount/ })).toHaveValue('38.50');
    // The line is refunded: only an amount is left to refund.
    await expect(page.getByRole('dialog', { name: `Refund order ${orderNumber}` }).getByRole('combobox')).toHaveCount(0);
    await page.getByRole('dialog', { name: `Refund order ${orderNumber}` }).getByRole('button', { name: 'Cancel' }).click();
    await page.goto(`/product/${CABLE.slug}`);
    expect(await readProductPageStock(page)).toBe(stockBefore + 1);
  });

  await test.step('leave things as they were: delete the product, remove the authenticator', async () => {
    await page.goto('/admin/products');
    await productRow(page, name).getByRole('button', { name: 'Delete Product' }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete Product' });
    await expect(confirm).toContainText(`Are you sure you want to delete "${name}"?`);
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Product deleted successfully!' })).toBeVisible();
    await expect(productRow(page, name)).toHaveCount(0);
    state.productDeleted = true;

    await mainNav(page).getByRole('link', { name: 'MFA' }).click();
    const section = page.getByRole('region', { name: 'Two-Factor Authentication' });
    // Removing two-factor asks for a current code (docs/auth.md).
    await section.getByRole('button', { name: 'Remove' }).click();
    const removal = page.getByRole('dialog', { name: 'Remove authenticator' });
    const fresh = await freshCode(state.secret!, state.lastStep);
    state.lastStep = fresh.step;
    await removal.getByLabel(/Code from your authenticator app/).fill(fresh.code);
    await removal.getByRole('button', { name: 'Remove authenticator' }).click();
    await expect(section.getByText('Disabled', { exact: true })).toBeVisible();
    state.factorRemoved = true;
  });
});
