import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi, type MockInstance } from 'vitest';
import { fixtureProduct } from '@/dev/fixtures';
import { browserNavigation } from '@/lib/navigation';
import type { Product } from '@/lib/types';
import { fakeAuth } from '@/test/fakeAuthClient';
import { deferred, jsonResponse, mockFetch, renderRoute } from '@/test/utils';
import { CheckoutPage } from './CheckoutPage';

const SESSION = { sessionId: 'cs_test_1', url: 'https://pay.example.test/pay/test/cs_test_1', checkoutId: 'chk-1' };

function renderCheckout(entry: string) {
  return renderRoute(<CheckoutPage />, { path: '/checkout/:slug', initialEntry: entry });
}

type Handler = (url: string, init: RequestInit | undefined) => Response | Promise<Response>;

/** Serves `product` and answers checkout creation with `create`. */
function serve(product: Product | null, create: Handler = () => jsonResponse(200, SESSION), extra?: Handler) {
  return mockFetch((url, init) => {
    if (url === '/functions/v1/create-checkout-session') return create(url, init);
    if (extra) {
      const response = extra(url, init);
      if (response instanceof Response && response.status !== 599) return response;
    }
    if (product && url === `/api/v1/products/${product.slug}`) return jsonResponse(200, { product });
    return jsonResponse(404, { code: 'product_not_found', message: 'Product not found' });
  });
}

/** The amount beside a term ('Price', 'Total') of the order summary. */
function amountOf(term: string): string | null {
  return screen.getByText(term, { selector: 'dt' }).nextElementSibling?.textContent ?? null;
}

function bodyOf(init: RequestInit | undefined): unknown {
  return JSON.parse(init?.body as string);
}

function checkoutCalls(fetchMock: ReturnType<typeof mockFetch>) {
  return fetchMock.mock.calls.filter(([url]) => url === '/functions/v1/create-checkout-session');
}

let assign: MockInstance<(url: string) => void>;

beforeEach(() => {
  fakeAuth.restoreSession();
  assign = vi.spyOn(browserNavigation, 'assign').mockImplementation(() => undefined);
});

describe('CheckoutPage: subscriptions', () => {
  it('lists the plans as a radio group with en-NZ prices and frequencies, the first chosen', async () => {
    serve(fixtureProduct('hhtraff'));
    renderCheckout('/checkout/hhtraff');
    expect(screen.getByText('Loading product details...')).toBeInTheDocument();
    expect(await screen.findByRole('heading', { level: 1, name: 'Checkout' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'HHTraff Terminal' })).toBeInTheDocument();
    const group = screen.getByRole('group', { name: 'Choose a pricing plan' });
    const radios = within(group).getAllByRole('radio');
    expect(radios).toHaveLength(3);
    expect(within(group).getByRole('radio', { name: 'Monthly $15.00 per month' })).toBeChecked();
    expect(within(group).getByRole('radio', { name: 'Quarterly $40.00 every 3 months' })).not.toBeChecked();
    expect(within(group).getByRole('radio', { name: 'Annual $150.00 per year' })).not.toBeChecked();
    expect(document.title).toBe('Checkout | Signalcraft');
  });

  it('formats other currencies the en-NZ way', async () => {
    const product = fixtureProduct('hhtraff');
    product.plans = [{ id: 'aud', name: 'Monthly (AUD)', price_amount: 1650, currency: 'AUD', billing_frequency_value: 6, billing_frequency_unit: 'month', sort_order: 0 }];
    serve(product);
    renderCheckout('/checkout/hhtraff');
    expect(await screen.findByRole('radio', { name: 'Monthly (AUD) A$16.50 every 6 months' })).toBeChecked();
  });

  it('sends only {productSlug, priceId} of the chosen plan, then goes to the returned url', async () => {
    const fetchMock = serve(fixtureProduct('hhtraff'));
    const user = userEvent.setup();
    renderCheckout('/checkout/hhtraff');
    await user.click(await screen.findByRole('radio', { name: /^Annual/ }));
    await user.click(screen.getByRole('button', { name: 'Continue to Payment' }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith(SESSION.url));
    const [call] = checkoutCalls(fetchMock);
    expect(bodyOf(call![1])).toEqual({ productSlug: 'hhtraff', priceId: 'plan-hh-12' });
    expect((call![1]?.headers as Record<string, string>).Authorization).toMatch(/^Bearer /);
    expect(screen.getByRole('status')).toHaveTextContent('Redirecting to the payment page...');
    expect(screen.getByRole('button', { name: 'Continue to Payment' })).toBeDisabled();
  });

  it('disables the button and shows progress while the checkout is being created', async () => {
    const response = deferred<Response>();
    serve(fixtureProduct('hhtraff'), () => response.promise);
    const user = userEvent.setup();
    renderCheckout('/checkout/hhtraff');
    await user.click(await screen.findByRole('button', { name: 'Continue to Payment' }));
    expect(screen.getByRole('button', { name: 'Continue to Payment' })).toBeDisabled();
    expect(screen.getByRole('status')).toHaveTextContent('Creating checkout...');
    response.resolve(jsonResponse(200, SESSION));
    await waitFor(() => expect(assign).toHaveBeenCalledTimes(1));
  });

  it("shows the server's 409 already_subscribed message with a way to the dashboard", async () => {
    serve(fixtureProduct('hhtraff'), () =>
      jsonResponse(409, { code: 'already_subscribed', message: 'You already have an active subscription to HHTraff Terminal.' }),
    );
    const user = userEvent.setup();
    renderCheckout('/checkout/hhtraff');
    await user.click(await screen.findByRole('button', { name: 'Continue to Payment' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('You already have an active subscription to HHTraff Terminal.');
    expect(within(alert).getByRole('link', { name: 'Dashboard' })).toHaveAttribute('href', '/dashboard');
    expect(screen.getByRole('button', { name: 'Continue to Payment' })).toBeEnabled();
    expect(assign).not.toHaveBeenCalled();
  });

  it('shows a 422 with its field message', async () => {
    serve(fixtureProduct('hhtraff'), () =>
      jsonResponse(422, { code: 'validation_failed', message: 'Check the order.', fields: { priceId: 'Choose one of the plans of this product.' } }),
    );
    const user = userEvent.setup();
    renderCheckout('/checkout/hhtraff');
    await user.click(await screen.findByRole('button', { name: 'Continue to Payment' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Check the order. Choose one of the plans of this product.');
  });

  it('shows a 502 from the payment provider, and a network failure', async () => {
    let answer: () => Response | Promise<Response> = () =>
      jsonResponse(502, { code: 'payment_provider_error', message: 'The payment provider did not answer. Please try again.' });
    serve(fixtureProduct('hhtraff'), () => answer());
    const user = userEvent.setup();
    renderCheckout('/checkout/hhtraff');
    await user.click(await screen.findByRole('button', { name: 'Continue to Payment' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('The payment provider did not answer. Please try again.');
    answer = () => Promise.reject(new TypeError('Failed to fetch'));
    await user.click(screen.getByRole('button', { name: 'Continue to Payment' }));
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent('The server could not be reached.'));
  });

  it('says so when the answer has no payment page', async () => {
    serve(fixtureProduct('hhtraff'), () => jsonResponse(200, { sessionId: 'cs_1', url: '', checkoutId: 'chk' }));
    const user = userEvent.setup();
    renderCheckout('/checkout/hhtraff');
    await user.click(await screen.findByRole('button', { name: 'Continue to Payment' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('The payment page could not be opened. Please try again.');
    expect(assign).not.toHaveBeenCalled();
  });

  it('asks for a plan and sends nothing when the chosen plan is gone after a reload', async () => {
    const product = fixtureProduct('hhtraff');
    let current = product;
    const fetchMock = mockFetch((url) => {
      if (url === '/functions/v1/create-checkout-session') return jsonResponse(200, SESSION);
      return jsonResponse(200, { product: current });
    });
    const user = userEvent.setup();
    const { queryClient } = renderCheckout('/checkout/hhtraff');
    await user.click(await screen.findByRole('radio', { name: /^Annual/ }));
    current = { ...product, plans: product.plans!.filter((plan) => plan.id !== 'plan-hh-12') };
    await act(() => queryClient.invalidateQueries());
    await waitFor(() => expect(screen.getAllByRole('radio')).toHaveLength(2));
    expect(screen.getAllByRole('radio').filter((radio) => (radio as HTMLInputElement).checked)).toHaveLength(0);
    await user.click(screen.getByRole('button', { name: 'Continue to Payment' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Choose a pricing plan.');
    expect(checkoutCalls(fetchMock)).toHaveLength(0);
    expect(assign).not.toHaveBeenCalled();
    await user.click(screen.getByRole('radio', { name: /^Quarterly/ }));
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Continue to Payment' }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith(SESSION.url));
    expect(bodyOf(checkoutCalls(fetchMock)[0]![1])).toEqual({ productSlug: 'hhtraff', priceId: 'plan-hh-3' });
  });

  it('offers no button for a subscription without plans', async () => {
    const product = fixtureProduct('hhtraff');
    product.plans = [];
    serve(product);
    renderCheckout('/checkout/hhtraff');
    expect(await screen.findByText('No pricing plans are available for this product yet.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Continue to Payment' })).not.toBeInTheDocument();
  });

  it("offers no button for a product whose action type is 'none'", async () => {
    const product = fixtureProduct('hhtraff');
    product.action_type = 'none';
    serve(product);
    renderCheckout('/checkout/hhtraff');
    expect(await screen.findByText('Coming Soon')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Continue to Payment' })).not.toBeInTheDocument();
  });
});

describe('CheckoutPage: physical products', () => {
  it('offers a quantity of 1..stock and sends {productSlug, quantity}', async () => {
    const fetchMock = serve(fixtureProduct('bluetooth-serial-adapter'));
    const user = userEvent.setup();
    renderCheckout('/checkout/bluetooth-serial-adapter');
    const quantity = await screen.findByRole('combobox', { name: 'Quantity' });
    expect(within(quantity).getAllByRole('option').map((option) => option.textContent)).toEqual(['1', '2', '3', '4']);
    expect(amountOf('Price')).toBe('$129.00');
    expect(amountOf('Total')).toBe('$129.00');
    await user.selectOptions(quantity, '3');
    expect(amountOf('Price')).toBe('$129.00');
    expect(amountOf('Total')).toBe('$387.00');
    await user.click(screen.getByRole('button', { name: 'Continue to Payment' }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith(SESSION.url));
    expect(bodyOf(checkoutCalls(fetchMock)[0]![1])).toEqual({ productSlug: 'bluetooth-serial-adapter', quantity: 3 });
  });

  it('offers 1..99 when the stock is not tracked', async () => {
    const product = fixtureProduct('usb-rs232-cable');
    product.track_inventory = false;
    serve(product);
    renderCheckout('/checkout/usb-rs232-cable');
    const quantity = await screen.findByRole('combobox', { name: 'Quantity' });
    const options = within(quantity).getAllByRole('option');
    expect(options).toHaveLength(99);
    expect(options.at(-1)).toHaveTextContent('99');
  });

  it('shows the sold-out state and no buy button', async () => {
    serve(fixtureProduct('hit-rs485-interface'));
    renderCheckout('/checkout/hit-rs485-interface');
    expect(await screen.findByText('This item is currently out of stock')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Continue to Payment' })).not.toBeInTheDocument();
    expect(screen.queryByRole('combobox', { name: 'Quantity' })).not.toBeInTheDocument();
  });

  it("shows a 409 insufficient_stock message and reloads the product's stock", async () => {
    let stock = 4;
    const product = fixtureProduct('bluetooth-serial-adapter');
    const fetchMock = mockFetch((url) => {
      if (url === '/functions/v1/create-checkout-session') {
        stock = 3;
        return jsonResponse(409, { code: 'insufficient_stock', message: 'Only 3 left in stock.' });
      }
      return jsonResponse(200, { product: { ...product, stock_quantity: stock } });
    });
    const user = userEvent.setup();
    renderCheckout('/checkout/bluetooth-serial-adapter');
    await user.selectOptions(await screen.findByRole('combobox', { name: 'Quantity' }), '4');
    await user.click(screen.getByRole('button', { name: 'Continue to Payment' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Only 3 left in stock.');
    await waitFor(() => expect(within(screen.getByRole('combobox', { name: 'Quantity' })).getAllByRole('option')).toHaveLength(3));
    expect(screen.getByRole('combobox', { name: 'Quantity' })).toHaveValue('3');
    // The lowered quantity is announced beside the control, and the total follows it.
    expect(screen.getByRole('combobox', { name: 'Quantity' })).toHaveAccessibleDescription('Only 3 in stock: the quantity is now 3.');
    expect(amountOf('Total')).toBe('$387.00');
    await user.selectOptions(screen.getByRole('combobox', { name: 'Quantity' }), '2');
    expect(screen.queryByText(/the quantity is now/)).not.toBeInTheDocument();
    expect(fetchMock.mock.calls.filter(([url]) => typeof url === 'string' && url.startsWith('/api/v1/products/'))).toHaveLength(2);
  });
});

describe('CheckoutPage: missing product', () => {
  it('shows Product Not Found with Back to Home', async () => {
    serve(null);
    const user = userEvent.setup();
    renderCheckout('/checkout/nope');
    expect(await screen.findByRole('heading', { name: 'Product Not Found' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Back to Home' }));
    expect(screen.getByTestId('location')).toHaveTextContent(/^\/$/);
  });
});

describe('CheckoutPage: coming back cancelled', () => {
  it('cancels the checkout once and says nothing was charged', async () => {
    const fetchMock = serve(fixtureProduct('hhtraff'), undefined, (url) =>
      url === '/api/v1/account/checkouts/chk-9/cancel' ? jsonResponse(200, { status: 'expired' }) : new Response(null, { status: 599 }),
    );
    renderCheckout('/checkout/hhtraff?cancelled=chk-9');
    expect(await screen.findByText('Your checkout was cancelled and nothing was charged.')).toBeInTheDocument();
    expect(await screen.findByRole('radio', { name: /^Monthly/ })).toBeInTheDocument();
    const cancels = fetchMock.mock.calls.filter(([url]) => url === '/api/v1/account/checkouts/chk-9/cancel');
    expect(cancels).toHaveLength(1);
    expect(cancels[0]![1]?.method).toBe('POST');
  });

  it('says the checkout was paid when the server answers checkout_closed', async () => {
    serve(fixtureProduct('hhtraff'), undefined, (url) =>
      url.endsWith('/cancel') ? jsonResponse(409, { code: 'checkout_closed', message: 'This checkout has already been paid.' }) : new Response(null, { status: 599 }),
    );
    renderCheckout('/checkout/hhtraff?cancelled=chk-9');
    expect(await screen.findByText('This checkout has already been paid.')).toBeInTheDocument();
    expect(screen.queryByText('Your checkout was cancelled and nothing was charged.')).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Dashboard' })).toHaveAttribute('href', '/dashboard');
  });

  it('does not call cancel without the parameter', async () => {
    const fetchMock = serve(fixtureProduct('hhtraff'));
    renderCheckout('/checkout/hhtraff');
    await screen.findByRole('radio', { name: /^Monthly/ });
    expect(fetchMock.mock.calls.some(([url]) => typeof url === 'string' && url.includes('/cancel'))).toBe(false);
    expect(screen.queryByText(/nothing was charged/)).not.toBeInTheDocument();
  });
});
