// /admin/products driven by role and accessible name, the server mocked at the fetch level in the
// contract's shapes (docs/openapi.yaml "Back office"). The rich-text editor is a plain text area
// here (Quill needs a real browser; the Playwright journey types into the real one).
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeAuth } from '@/test/fakeAuthClient';
import { renderRoute } from '@/test/utils';
import type { AdminProduct } from '../api/schemas';
import { callsTo, jsonResponse, mockApi, page, plan, product } from '../testing';
import { ProductManagementPage } from './ProductManagementPage';

vi.mock('../components/QuillEditor', () => ({
  default: ({ labelledBy, value, onChange }: { labelledBy: string; value: string; onChange: (html: string) => void }) => (
    <textarea aria-labelledby={labelledBy} value={value} onChange={(event) => onChange(event.target.value)} />
  ),
}));

const IMAGES = {
  folders: ['bluetooth', 'hit', 'hhtraff', 'wirewrite', 'usb-cable', 'uploads'],
  images: [
    { url: '/products/hhtraff/hhtraff-icon.svg', name: 'hhtraff-icon.svg', folder: 'hhtraff' },
    { url: '/products/bluetooth/adapter.png', name: 'adapter.png', folder: 'bluetooth' },
  ],
};

/** A small in-memory back office: the list reflects the writes, like the server. */
function serve(initial: AdminProduct[], overrides: Partial<Record<string, (init: RequestInit | undefined) => Response>> = {}) {
  let products = [...initial];
  return mockApi((url, init) => {
    const method = init?.method ?? 'GET';
    const key = `${method} ${url.pathname}`;
    const override = overrides[key];
    if (override) return override(init);
    if (key === 'GET /api/v1/admin/products') return jsonResponse(200, page(products));
    if (key === 'GET /api/v1/admin/images') return jsonResponse(200, IMAGES);
    if (key === 'POST /api/v1/admin/products') {
      const body = JSON.parse(init?.body as string) as Partial<AdminProduct>;
      const created = product({ ...body, id: 'prod-new', plans: [], created_at: '2025-10-10T00:00:00Z' });
      products = [created, ...products];
      return jsonResponse(201, { product: created });
    }
    const match = /^\/api\/v1\/admin\/products\/([^/]+)$/.exec(url.pathname);
    if (match && method === 'PATCH') {
      const body = JSON.parse(init?.body as string) as Partial<AdminProduct>;
      products = products.map((p) => (p.id === match[1] ? { ...p, ...body } : p));
      return jsonResponse(200, { product: products.find((p) => p.id === match[1]) });
    }
    if (match && method === 'DELETE') {
      products = products.filter((p) => p.id !== match[1]);
      return new Response(null, { status: 204 });
    }
    const plans = /^\/api\/v1\/admin\/products\/([^/]+)\/plans$/.exec(url.pathname);
    if (plans && method === 'POST') {
      const body = JSON.parse(init?.body as string) as { name: string; price: string };
      const created = plan({ id: `plan-${String(Date.now())}`, product_id: plans[1], name: body.name, price_amount: 1999 });
      products = products.map((p) => (p.id === plans[1] ? { ...p, plans: [...p.plans, created] } : p));
      return jsonResponse(201, { plan: created });
    }
    return undefined;
  });
}

function renderPage() {
  return renderRoute(<ProductManagementPage />, { path: '/admin/products', initialEntry: '/admin/products' });
}

function rowOf(name: string) {
  const table = screen.getByRole('table', { name: 'Products' });
  const row = within(table)
    .getAllByRole('row')
    .find((r) => within(r).queryByText(name));
  if (!row) throw new Error(`no row for ${name}`);
  return row;
}

beforeEach(() => {
  fakeAuth.restoreSession({ email: 'admin@example.test', roles: ['admin'] }, 'aal2');
});
afterEach(() => {
  vi.useRealTimers();
});

describe('ProductManagementPage', () => {
  it('lists products with the spec columns, status, stock and plan count', async () => {
    serve([product(), product({ id: 'prod-2', name: 'USB Cable', slug: 'usb-cable', type: 'physical', is_active: false, track_inventory: true, stock_quantity: 7, plans: [], icon_url: null })]);
    renderPage();
    expect(screen.getByRole('heading', { level: 1, name: 'Product Management' })).toBeInTheDocument();
    const table = await screen.findByRole('table', { name: 'Products' });
    await within(table).findByText('HHTraff Terminal');
    expect(within(table).getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['Product', 'Type', 'Status', 'Stock', 'Plans', 'Actions']);
    const first = rowOf('HHTraff Terminal');
    expect(first).toHaveTextContent('hhtraff');
    expect(first).toHaveTextContent('Subscription');
    expect(within(first).getByRole('button', { name: /^Active/ })).toBeInTheDocument();
    expect(within(first).getByRole('button', { name: 'Manage Pricing' })).toBeInTheDocument();
    const cable = rowOf('USB Cable');
    expect(cable).toHaveTextContent('Physical');
    expect(cable).toHaveTextContent('7');
    expect(within(cable).getByRole('button', { name: /^Inactive/ })).toBeInTheDocument();
    expect(within(cable).getByText('No Image')).toBeInTheDocument();
    // Manage Pricing is for subscription products only.
    expect(within(cable).queryByRole('button', { name: 'Manage Pricing' })).not.toBeInTheDocument();
    for (const label of ['Edit Product', 'Edit Home Page Appearance', 'Edit Detail Page Content', 'Delete Product']) {
      // Each row's buttons say which product they act on.
      expect(within(cable).getByRole('button', { name: label })).toHaveAccessibleDescription('USB Cable');
    }
  });

  it('says the empty text', async () => {
    serve([]);
    renderPage();
    expect(await screen.findByRole('cell', { name: 'No products found. Click "Add Product" to create one.' })).toBeInTheDocument();
  });

  it('shows the refusal text when the server says the caller is not an admin', async () => {
    mockApi(() => jsonResponse(403, { code: 'forbidden', message: 'Access denied. Admin privileges required.' }));
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    renderPage();
    expect(await screen.findByRole('alert')).toHaveTextContent('Access denied. Admin privileges required.');
    expect(screen.queryByRole('button', { name: 'Add Product' })).not.toBeInTheDocument();
  });

  it('adds a product: slug normalised as typed, features by Enter, rich text, and the success text hides after 3 s', async () => {
    const fetchMock = serve([]);
    const user = userEvent.setup();
    renderPage();
    await screen.findByRole('cell', { name: /No products found/ });
    await user.click(screen.getByRole('button', { name: 'Add Product' }));
    const dialog = screen.getByRole('dialog', { name: 'Add New Product' });
    await user.type(within(dialog).getByRole('textbox', { name: /^Name/ }), 'Serial Logger');
    await user.click(within(dialog).getByRole('textbox', { name: /^Slug/ }));
    await user.paste('Serial  Logger\tPro');
    expect(within(dialog).getByRole('textbox', { name: /^Slug/ })).toHaveValue('serial-logger-pro');
    await user.type(await within(dialog).findByRole('textbox', { name: 'Home Page Description' }), '<h2>Logs</h2>');
    const feature = within(dialog).getByRole('textbox', { name: 'New Feature' });
    await user.type(feature, '  Timestamps  {Enter}');
    await user.type(feature, '   {Enter}');
    await user.type(feature, 'Export{Enter}');
    expect(within(within(dialog).getByRole('list', { name: 'Features' })).getAllByRole('listitem').map((li) => li.firstChild?.textContent)).toEqual(['Timestamps', 'Export']);
    // Enter in the feature field did not submit the form.
    expect(callsTo(fetchMock, 'POST', '/api/v1/admin/products')).toHaveLength(0);

    // From the click on, time is the test's: the answer lands within 50 ms, then the 3 s count.
    // (fireEvent: user-event's own waits never end under Vitest's fake timers.)
    vi.useFakeTimers();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create Product' }));
    await act(() => vi.advanceTimersByTimeAsync(50));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    const [call] = callsTo(fetchMock, 'POST', '/api/v1/admin/products');
    expect(call?.body).toMatchObject({
      name: 'Serial Logger',
      slug: 'serial-logger-pro',
      type: 'subscription',
      description: '<h2>Logs</h2>',
      description_detail: null,
      features: ['Timestamps', 'Export'],
      is_active: true,
      stock_quantity: null,
      action_type: null,
      action_url: null,
    });
    expect(screen.getByRole('status')).toHaveTextContent('Product created successfully!');
    expect(screen.getByText('Serial Logger')).toBeInTheDocument();
    await act(() => vi.advanceTimersByTimeAsync(2900));
    expect(screen.getByText('Product created successfully!')).toBeInTheDocument();
    await act(() => vi.advanceTimersByTimeAsync(100));
    expect(screen.queryByText('Product created successfully!')).not.toBeInTheDocument();
  });

  it('checks the form before sending and shows the server’s taken-slug answer under the field', async () => {
    const fetchMock = serve([], {
      'POST /api/v1/admin/products': () =>
        jsonResponse(409, { code: 'slug_taken', message: "The slug 'hhtraff' is already used by another product.", fields: { slug: "The slug 'hhtraff' is already used by another product." } }),
    });
    const user = userEvent.setup();
    renderPage();
    await screen.findByRole('cell', { name: /No products found/ });
    await user.click(screen.getByRole('button', { name: 'Add Product' }));
    const dialog = screen.getByRole('dialog', { name: 'Add New Product' });
    await user.click(within(dialog).getByRole('button', { name: 'Create Product' }));
    expect(within(dialog).getByRole('textbox', { name: /^Name/ })).toHaveAccessibleDescription('Name is required.');
    expect(within(dialog).getByRole('textbox', { name: /^Slug/ })).toHaveAccessibleDescription(/Slug is required\./);
    expect(callsTo(fetchMock, 'POST', '/api/v1/admin/products')).toHaveLength(0);

    await user.type(within(dialog).getByRole('textbox', { name: /^Name/ }), 'Copy');
    await user.type(within(dialog).getByRole('textbox', { name: /^Slug/ }), 'hhtraff');
    await user.click(within(dialog).getByRole('button', { name: 'Create Product' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent("The slug 'hhtraff' is already used by another product.");
    expect(within(dialog).getByRole('textbox', { name: /^Slug/ })).toHaveAttribute('aria-invalid', 'true');
  });

  it('shows the redirect URL and Show Pricing Section for action types other than none, and stock only for tracked physical products', async () => {
    serve([]);
    const user = userEvent.setup();
    renderPage();
    await screen.findByRole('cell', { name: /No products found/ });
    await user.click(screen.getByRole('button', { name: 'Add Product' }));
    const dialog = screen.getByRole('dialog', { name: 'Add New Product' });
    const actionType = within(dialog).getByRole('combobox', { name: 'Action Type' });
    expect(within(dialog).queryByRole('textbox', { name: 'Redirect URL' })).not.toBeInTheDocument();
    await user.selectOptions(actionType, 'google_play');
    expect(within(dialog).getByRole('textbox', { name: 'Redirect URL' })).toBeInTheDocument();
    expect(within(dialog).getByRole('checkbox', { name: 'Show Pricing Section' })).toBeChecked();
    await user.selectOptions(actionType, 'none');
    expect(within(dialog).queryByRole('textbox', { name: 'Redirect URL' })).not.toBeInTheDocument();
    expect(within(dialog).queryByRole('checkbox', { name: 'Show Pricing Section' })).not.toBeInTheDocument();

    expect(within(dialog).queryByRole('checkbox', { name: 'Track Inventory' })).not.toBeInTheDocument();
    await user.selectOptions(within(dialog).getByRole('combobox', { name: 'Type' }), 'physical');
    expect(within(dialog).queryByRole('spinbutton', { name: 'Stock Quantity' })).not.toBeInTheDocument();
    await user.click(within(dialog).getByRole('checkbox', { name: 'Track Inventory' }));
    const stock = within(dialog).getByRole('spinbutton', { name: 'Stock Quantity' });
    await user.type(stock, '-3');
    await user.type(within(dialog).getByRole('textbox', { name: /^Name/ }), 'Cable');
    await user.type(within(dialog).getByRole('textbox', { name: /^Slug/ }), 'cable');
    await user.click(within(dialog).getByRole('button', { name: 'Create Product' }));
    expect(stock).toHaveAccessibleDescription('Stock must be a whole number of 0 or more.');
  });

  it('edits the home page appearance with only its fields, picking the icon from the image library', async () => {
    const fetchMock = serve([product()]);
    const user = userEvent.setup();
    renderPage();
    await screen.findByText('HHTraff Terminal');
    await user.click(within(rowOf('HHTraff Terminal')).getByRole('button', { name: 'Edit Home Page Appearance' }));
    const dialog = screen.getByRole('dialog', { name: 'Edit Home Page Appearance' });
    expect(within(dialog).queryByRole('textbox', { name: /^Name/ })).not.toBeInTheDocument();
    expect(within(dialog).queryByRole('textbox', { name: 'Detail Page Description' })).not.toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Select Image for Icon URL' }));
    const picker = screen.getByRole('dialog', { name: 'Select Image from Public Folder' });
    const folders = within(picker).getByRole('group', { name: 'Folders' });
    await within(folders).findByRole('button', { name: 'bluetooth' });
    expect(within(folders).getAllByRole('button').map((b) => b.textContent)).toEqual(['All Products', 'bluetooth', 'hit', 'hhtraff', 'wirewrite', 'usb-cable', 'uploads']);
    expect(within(picker).getAllByRole('button', { name: /^Select / })).toHaveLength(2);
    await user.click(within(folders).getByRole('button', { name: 'bluetooth' }));
    expect(within(picker).getAllByRole('button', { name: /^Select / })).toHaveLength(1);
    await user.click(within(picker).getByRole('button', { name: 'Select adapter.png' }));
    const form = screen.getByRole('dialog', { name: 'Edit Home Page Appearance' });
    expect(within(form).getByRole('textbox', { name: 'Icon URL' })).toHaveValue('/products/bluetooth/adapter.png');
    await user.click(within(form).getByRole('button', { name: 'Remove feature Logging' }));
    await user.click(within(form).getByRole('button', { name: 'Save Changes' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    const [call] = callsTo(fetchMock, 'PATCH', '/api/v1/admin/products/prod-1');
    expect(call?.body).toEqual({ icon_url: '/products/bluetooth/adapter.png', description: '<p>Serial terminal</p>', features: [] });
    expect(screen.getByRole('status')).toHaveTextContent('Product updated successfully!');
  });

  it('uploads a PNG as the raw body, refusing other types and files over 5 MB in the browser', async () => {
    const fetchMock = serve([product()], {
      'POST /api/v1/admin/images': () => jsonResponse(201, { image: { url: '/uploads/abc123.png', name: 'abc123.png', folder: 'uploads' } }),
    });
    const user = userEvent.setup({ applyAccept: false });
    renderPage();
    await screen.findByText('HHTraff Terminal');
    await user.click(within(rowOf('HHTraff Terminal')).getByRole('button', { name: 'Edit Detail Page Content' }));
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Select Image for Picture URL' }));
    const picker = screen.getByRole('dialog', { name: 'Select Image from Public Folder' });
    const upload = within(picker).getByLabelText('Upload Image');

    await user.upload(upload, new File(['<svg/>'], 'logo.svg', { type: 'image/svg+xml' }));
    expect(within(picker).getByRole('alert')).toHaveTextContent('Only PNG, JPEG or WebP images can be uploaded.');
    const big = new File([new Uint8Array(5 * 1024 * 1024 + 1)], 'big.png', { type: 'image/png' });
    await user.upload(upload, big);
    expect(within(picker).getByRole('alert')).toHaveTextContent('The image is larger than 5 MB.');
    expect(callsTo(fetchMock, 'POST', '/api/v1/admin/images')).toHaveLength(0);

    const png = new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], 'pixel.png', { type: 'image/png' });
    await user.upload(upload, png);
    const form = await screen.findByRole('dialog', { name: 'Edit Detail Page Content' });
    expect(within(form).getByRole('textbox', { name: 'Picture URL' })).toHaveValue('/uploads/abc123.png');
    const [call] = callsTo(fetchMock, 'POST', '/api/v1/admin/images');
    expect(call?.body).toBe(png);
    expect(call?.headers['Content-Type']).toBe('image/png');
  });

  it('edits the whole product (Edit Product), prefilled, sending every field with the NZD price in cents', async () => {
    const fetchMock = serve([product({ type: 'physical', track_inventory: true, stock_quantity: 4, plans: [], price_nzd: 12900, action_type: 'external_link', action_url: 'https://example.com/buy' })]);
    const user = userEvent.setup();
    renderPage();
    await screen.findByText('HHTraff Terminal');
    await user.click(within(rowOf('HHTraff Terminal')).getByRole('button', { name: 'Edit Product' }));
    const dialog = screen.getByRole('dialog', { name: 'Edit Product' });
    expect(within(dialog).getByRole('textbox', { name: /^Name/ })).toHaveValue('HHTraff Terminal');
    expect(within(dialog).getByRole('spinbutton', { name: 'Stock Quantity' })).toHaveValue(4);
    expect(within(dialog).getByRole('spinbutton', { name: 'Price (NZD)' })).toHaveValue(129);
    expect(within(dialog).getByRole('textbox', { name: 'Redirect URL' })).toHaveValue('https://example.com/buy');
    const price = within(dialog).getByRole('spinbutton', { name: 'Price (NZD)' });
    await user.clear(price);
    await user.type(price, '19.99');
    const stock = within(dialog).getByRole('spinbutton', { name: 'Stock Quantity' });
    await user.clear(stock);
    await user.click(within(dialog).getByRole('button', { name: 'Save Changes' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    const body = callsTo(fetchMock, 'PATCH', '/api/v1/admin/products/prod-1')[0]?.body as Record<string, unknown>;
    expect(Object.keys(body)).toHaveLength(17);
    expect(body).toMatchObject({ name: 'HHTraff Terminal', type: 'physical', price_nzd: 1999, stock_quantity: null, track_inventory: true, action_url: 'https://example.com/buy' });
    expect(screen.getByRole('status')).toHaveTextContent('Product updated successfully!');
  });

  it('toggles Active and Inactive from the Status column', async () => {
    const fetchMock = serve([product()]);
    const user = userEvent.setup();
    renderPage();
    await screen.findByText('HHTraff Terminal');
    await user.click(within(rowOf('HHTraff Terminal')).getByRole('button', { name: /^Active/ }));
    expect(await within(rowOf('HHTraff Terminal')).findByRole('button', { name: /^Inactive/ })).toHaveAttribute('aria-pressed', 'false');
    expect(callsTo(fetchMock, 'PATCH', '/api/v1/admin/products/prod-1')[0]?.body).toEqual({ is_active: false });
    expect(screen.getByRole('status')).toHaveTextContent('Product updated successfully!');
  });

  it('shows the server’s refusal of an upload (content not an image it takes, or too big)', async () => {
    let answer = jsonResponse(422, { code: 'unsupported_image', message: 'Only PNG, JPEG or WebP images are accepted (this file is a GIF).' });
    serve([product()], { 'POST /api/v1/admin/images': () => answer });
    const user = userEvent.setup();
    renderPage();
    await screen.findByText('HHTraff Terminal');
    await user.click(within(rowOf('HHTraff Terminal')).getByRole('button', { name: 'Edit Home Page Appearance' }));
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Select Image for Icon URL' }));
    const picker = screen.getByRole('dialog', { name: 'Select Image from Public Folder' });
    // A GIF renamed .png passes the browser's check; the server looks at the bytes.
    await user.upload(within(picker).getByLabelText('Upload Image'), new File(['GIF89a'], 'renamed.png', { type: 'image/png' }));
    expect(await within(picker).findByRole('alert')).toHaveTextContent('Only PNG, JPEG or WebP images are accepted (this file is a GIF).');
    answer = new Response('Payload Too Large', { status: 413 });
    await user.upload(within(picker).getByLabelText('Upload Image'), new File(['x'], 'a.png', { type: 'image/png' }));
    await waitFor(() => expect(within(picker).getByRole('alert')).toHaveTextContent('The image is larger than 5 MB.'));
  });

  it('deletes a product after the spec question', async () => {
    const fetchMock = serve([product()]);
    const user = userEvent.setup();
    renderPage();
    await screen.findByText('HHTraff Terminal');
    await user.click(within(rowOf('HHTraff Terminal')).getByRole('button', { name: 'Delete Product' }));
    const confirm = screen.getByRole('dialog', { name: 'Delete Product' });
    expect(confirm).toHaveAccessibleDescription('Are you sure you want to delete "HHTraff Terminal"?');
    await user.click(within(confirm).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByRole('status')).toHaveTextContent('Product deleted successfully!');
    expect(callsTo(fetchMock, 'DELETE', '/api/v1/admin/products/prod-1')).toHaveLength(1);
    expect(await screen.findByRole('cell', { name: /No products found/ })).toBeInTheDocument();
  });

  it('offers to deactivate a product the server will not delete (409 product_in_use)', async () => {
    const message = 'This product has orders, subscriptions or licences and cannot be deleted. Deactivate it instead.';
    const fetchMock = serve([product()], {
      'DELETE /api/v1/admin/products/prod-1': () => jsonResponse(409, { code: 'product_in_use', message }),
    });
    const user = userEvent.setup();
    renderPage();
    await screen.findByText('HHTraff Terminal');
    await user.click(within(rowOf('HHTraff Terminal')).getByRole('button', { name: 'Delete Product' }));
    await user.click(within(screen.getByRole('dialog', { name: 'Delete Product' })).getByRole('button', { name: 'Delete' }));
    const offer = await screen.findByRole('dialog', { name: 'Product in use' });
    expect(offer).toHaveAccessibleDescription(message);
    await user.click(within(offer).getByRole('button', { name: 'Deactivate' }));
    expect(await screen.findByRole('status')).toHaveTextContent('Product updated successfully!');
    expect(callsTo(fetchMock, 'PATCH', '/api/v1/admin/products/prod-1')[0]?.body).toEqual({ is_active: false });
    expect(await within(rowOf('HHTraff Terminal')).findByRole('button', { name: /^Inactive/ })).toBeInTheDocument();
  });

  it('says the failure when a delete fails otherwise', async () => {
    serve([product()], { 'DELETE /api/v1/admin/products/prod-1': () => jsonResponse(500, { code: 'internal_error', message: 'Boom' }) });
    const user = userEvent.setup();
    renderPage();
    await screen.findByText('HHTraff Terminal');
    await user.click(within(rowOf('HHTraff Terminal')).getByRole('button', { name: 'Delete Product' }));
    await user.click(within(screen.getByRole('dialog', { name: 'Delete Product' })).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to delete product');
  });
});

describe('Pricing Plans dialog', () => {
  it('adds a plan with the price sent as the string typed, and rejects 0.005 and negatives first', async () => {
    const fetchMock = serve([product({ plans: [] })]);
    const user = userEvent.setup();
    renderPage();
    await screen.findByText('HHTraff Terminal');
    await user.click(within(rowOf('HHTraff Terminal')).getByRole('button', { name: 'Manage Pricing' }));
    const dialog = screen.getByRole('dialog', { name: 'Pricing Plans - HHTraff Terminal' });
    const form = within(dialog).getByRole('form', { name: 'Add New Plan' });
    await user.type(within(form).getByRole('textbox', { name: /^Plan Name/ }), 'Monthly');
    const price = within(form).getByRole('spinbutton', { name: /^Price/ });
    expect(price).toHaveAttribute('min', '0');
    expect(price).toHaveAttribute('step', '0.01');
    for (const bad of ['0.005', '-5']) {
      await user.clear(price);
      await user.type(price, bad);
      await user.click(within(form).getByRole('button', { name: 'Add Plan' }));
      expect(price).toHaveAccessibleDescription(/Enter a price of 0 or more with at most 2 decimal places\./);
    }
    expect(callsTo(fetchMock, 'POST', '/api/v1/admin/products/prod-1/plans')).toHaveLength(0);

    await user.clear(price);
    await user.type(price, '19.99');
    await user.selectOptions(within(form).getByRole('combobox', { name: 'Currency' }), 'AUD');
    await user.selectOptions(within(form).getByRole('combobox', { name: 'Billing Every' }), '12');
    await user.selectOptions(within(form).getByRole('combobox', { name: 'Billing Unit' }), 'year');
    await user.click(within(form).getByRole('button', { name: 'Add Plan' }));
    expect(await within(dialog).findByRole('status')).toHaveTextContent('Pricing plan saved successfully!');
    const [call] = callsTo(fetchMock, 'POST', '/api/v1/admin/products/prod-1/plans');
    expect(call?.body).toEqual({ name: 'Monthly', price: '19.99', currency: 'AUD', billing_frequency_value: 12, billing_frequency_unit: 'year', sort_order: 0, trial_days: 0 });
    expect(typeof (call?.body as { price: unknown }).price).toBe('string');
    expect(await within(dialog).findByRole('listitem', { name: 'Monthly' })).toHaveTextContent('$19.99');
  });

  it('edits a plan (Edit Plan) and deletes one after the spec question', async () => {
    const yearly = plan({ id: 'plan-2', name: 'Yearly', price_amount: 15000, billing_frequency_unit: 'year', sort_order: 1 });
    const fetchMock = serve([product({ plans: [plan(), yearly] })], {
      'PATCH /api/v1/admin/plans/plan-2': (init) => jsonResponse(200, { plan: { ...yearly, ...(JSON.parse(init?.body as string) as object), price_amount: 14999 } }),
      'DELETE /api/v1/admin/plans/plan-1': () => new Response(null, { status: 204 }),
    });
    const user = userEvent.setup();
    renderPage();
    await screen.findByText('HHTraff Terminal');
    await user.click(within(rowOf('HHTraff Terminal')).getByRole('button', { name: 'Manage Pricing' }));
    const dialog = screen.getByRole('dialog', { name: 'Pricing Plans - HHTraff Terminal' });
    expect(within(dialog).getAllByRole('listitem').map((li) => li.getAttribute('aria-label'))).toEqual(['Monthly', 'Yearly']);
    expect(within(dialog).getByRole('listitem', { name: 'Yearly' })).toHaveTextContent('$150.00 NZD per year');

    await user.click(within(within(dialog).getByRole('listitem', { name: 'Yearly' })).getByRole('button', { name: 'Edit' }));
    const form = within(dialog).getByRole('form', { name: 'Edit Plan' });
    const price = within(form).getByRole('spinbutton', { name: /^Price/ });
    expect(price).toHaveValue(150);
    await user.clear(price);
    await user.type(price, '149.99');
    await user.click(within(form).getByRole('button', { name: 'Update Plan' }));
    expect(await within(dialog).findByRole('status')).toHaveTextContent('Pricing plan saved successfully!');
    expect(callsTo(fetchMock, 'PATCH', '/api/v1/admin/plans/plan-2')[0]?.body).toMatchObject({ name: 'Yearly', price: '149.99', billing_frequency_unit: 'year', sort_order: 1 });
    expect(within(dialog).getByRole('form', { name: 'Add New Plan' })).toBeInTheDocument();

    await user.click(within(within(dialog).getByRole('listitem', { name: 'Monthly' })).getByRole('button', { name: 'Delete' }));
    const question = within(dialog).getByRole('alertdialog', { name: 'Delete pricing plan' });
    expect(question).toHaveAccessibleDescription('Are you sure you want to delete this pricing plan?');
    await user.click(within(question).getByRole('button', { name: 'Delete Plan' }));
    await waitFor(() => expect(within(dialog).getByRole('status')).toHaveTextContent('Pricing plan deleted!'));
    expect(callsTo(fetchMock, 'DELETE', '/api/v1/admin/plans/plan-1')).toHaveLength(1);
  });

  it('sends a plan\'s Trial days (0 to 90) as trial_days, and shows a stored trial', async () => {
    const trial = plan({ id: 'plan-2', name: 'Yearly', price_amount: 15000, billing_frequency_unit: 'year', sort_order: 1, trial_days: 30 });
    const fetchMock = serve([product({ plans: [plan(), trial] })], {
      'POST /api/v1/admin/products/prod-1/plans': (init) => jsonResponse(201, { plan: plan({ id: 'plan-3', name: 'Trial Monthly', ...(JSON.parse(init?.body as string) as object) }) }),
      'PATCH /api/v1/admin/plans/plan-2': (init) => jsonResponse(200, { plan: { ...trial, ...(JSON.parse(init?.body as string) as object) } }),
    });
    const user = userEvent.setup();
    renderPage();
    await screen.findByText('HHTraff Terminal');
    await user.click(within(rowOf('HHTraff Terminal')).getByRole('button', { name: 'Manage Pricing' }));
    const dialog = screen.getByRole('dialog', { name: 'Pricing Plans - HHTraff Terminal' });
    expect(within(dialog).getByRole('listitem', { name: 'Yearly' })).toHaveTextContent('$150.00 NZD per year, 30-day free trial');
    expect(within(dialog).getByRole('listitem', { name: 'Monthly' })).not.toHaveTextContent('trial');

    const form = within(dialog).getByRole('form', { name: 'Add New Plan' });
    const days = within(form).getByRole('spinbutton', { name: 'Trial days' });
    expect(days).toHaveValue(0);
    expect(days).toHaveAttribute('min', '0');
    expect(days).toHaveAttribute('max', '90');
    await user.type(within(form).getByRole('textbox', { name: /^Plan Name/ }), 'Trial Monthly');
    await user.type(within(form).getByRole('spinbutton', { name: /^Price/ }), '15');
    await user.clear(days);
    await user.type(days, '91');
    await user.click(within(form).getByRole('button', { name: 'Add Plan' }));
    expect(days).toHaveAccessibleDescription(/Trial days must be a whole number from 0 to 90\./);
    expect(callsTo(fetchMock, 'POST', '/api/v1/admin/products/prod-1/plans')).toHaveLength(0);
    await user.clear(days);
    await user.type(days, '14');
    await user.click(within(form).getByRole('button', { name: 'Add Plan' }));
    expect(await within(dialog).findByRole('status')).toHaveTextContent('Pricing plan saved successfully!');
    expect(callsTo(fetchMock, 'POST', '/api/v1/admin/products/prod-1/plans')[0]?.body).toMatchObject({ name: 'Trial Monthly', price: '15', trial_days: 14 });

    // Editing fills the field from the plan and sends it back with the others.
    await user.click(within(within(dialog).getByRole('listitem', { name: 'Yearly' })).getByRole('button', { name: 'Edit' }));
    const edit = within(dialog).getByRole('form', { name: 'Edit Plan' });
    expect(within(edit).getByRole('spinbutton', { name: 'Trial days' })).toHaveValue(30);
    await user.click(within(edit).getByRole('button', { name: 'Update Plan' }));
    await waitFor(() => expect(callsTo(fetchMock, 'PATCH', '/api/v1/admin/plans/plan-2')[0]?.body).toMatchObject({ name: 'Yearly', trial_days: 30 }));
  });

  it('says why a plan in use cannot be deleted', async () => {
    const message = 'Subscriptions use this plan, so it cannot be deleted.';
    serve([product()], { 'DELETE /api/v1/admin/plans/plan-1': () => jsonResponse(409, { code: 'plan_in_use', message }) });
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const user = userEvent.setup();
    renderPage();
    await screen.findByText('HHTraff Terminal');
    await user.click(within(rowOf('HHTraff Terminal')).getByRole('button', { name: 'Manage Pricing' }));
    const dialog = screen.getByRole('dialog', { name: 'Pricing Plans - HHTraff Terminal' });
    await user.click(within(within(dialog).getByRole('listitem', { name: 'Monthly' })).getByRole('button', { name: 'Delete' }));
    await user.click(within(dialog).getByRole('button', { name: 'Delete Plan' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(message);
  });
});
