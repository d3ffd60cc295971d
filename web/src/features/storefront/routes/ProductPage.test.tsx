import { fireEvent, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { fixtureProduct } from '@/dev/fixtures';
import type { Product } from '@/lib/types';
import { createTestQueryClient, deferred, jsonResponse, mockFetch, renderRoute } from '@/test/utils';
import { productKeys } from '../api/products';
import { ProductPage } from './ProductPage';

function renderProductPage(slug: string, seeded?: Product | null) {
  const queryClient = createTestQueryClient();
  if (seeded !== undefined) queryClient.setQueryData(productKeys.detail(slug), seeded);
  return renderRoute(<ProductPage />, { path: '/product/:slug', initialEntry: `/product/${slug}`, queryClient });
}

function serve(product: Product) {
  return mockFetch((url) =>
    url === `/api/v1/products/${product.slug}`
      ? jsonResponse(200, { product })
      : jsonResponse(404, { code: 'product_not_found', message: 'Product not found' }),
  );
}

describe('ProductPage', () => {
  it("shows 'Loading product details...' while the product loads, then the product", async () => {
    const response = deferred<Response>();
    mockFetch(() => response.promise);
    renderProductPage('hhtraff');
    expect(screen.getByText('Loading product details...')).toBeInTheDocument();
    response.resolve(jsonResponse(200, { product: fixtureProduct('hhtraff') }));
    expect(await screen.findByRole('heading', { level: 1, name: 'HHTraff Terminal' })).toBeInTheDocument();
  });

  it('shows Product Not Found with Back to Home for an API 404', async () => {
    mockFetch(() => jsonResponse(404, { code: 'product_not_found', message: 'Product not found' }));
    const user = userEvent.setup();
    renderProductPage('nope');
    expect(await screen.findByRole('heading', { name: 'Product Not Found' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Back to Home' }));
    expect(screen.getByTestId('location')).toHaveTextContent(/^\/$/);
  });

  it('shows Product Not Found without a request when the initial data says the product is missing', () => {
    const fetchMock = mockFetch(() => jsonResponse(500, {}));
    renderProductPage('nope', null);
    expect(screen.getByRole('heading', { name: 'Product Not Found' })).toBeInTheDocument();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('shows the error state with Retry (and logs) when loading fails, not Product Not Found (issue 33)', async () => {
    mockFetch(() => jsonResponse(500, { code: 'internal', message: 'boom' }));
    const log = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    renderProductPage('hhtraff');
    // The error state's code arrives when it is needed (LazyLoadError): then Retry.
    const retry = await screen.findByRole('button', { name: 'Retry' });
    const alert = screen.getByRole('alert');
    expect(alert).toHaveTextContent('This product could not be loaded.');
    expect(alert).toContainElement(retry);
    expect(screen.queryByRole('heading', { name: 'Product Not Found' })).not.toBeInTheDocument();
    expect(log).toHaveBeenCalled();
  });

  it('renders a seeded product without a request: badge, description, features, plans, checkout', () => {
    const fetchMock = mockFetch(() => jsonResponse(500, {}));
    renderProductPage('hhtraff', fixtureProduct('hhtraff'));
    expect(fetchMock).not.toHaveBeenCalled();

    expect(screen.getByRole('heading', { level: 1, name: 'HHTraff Terminal' })).toBeInTheDocument();
    expect(screen.getByText('Subscription')).toBeInTheDocument();
    expect(screen.getByRole('img', { name: 'HHTraff Terminal icon' })).toHaveAttribute('src', '/products/hhtraff/hhtraff-icon.svg');
    // The detailed description wins over the short one.
    expect(screen.getByText(/turns an Android phone or rugged handheld/)).toBeInTheDocument();
    expect(screen.queryByText(/on your Android phone\.$/)).not.toBeInTheDocument();

    const features = screen.getByRole('region', { name: 'Features' });
    expect(within(features).getAllByRole('listitem')).toHaveLength(4);

    const pricing = screen.getByRole('region', { name: 'Pricing' });
    expect(within(pricing).getByText('$15.00 per month')).toBeInTheDocument();
    expect(within(pricing).getByText('$40.00 every 3 months')).toBeInTheDocument();
    expect(within(pricing).getByText('$150.00 per year')).toBeInTheDocument();

    expect(screen.queryByRole('region', { name: 'Stock Status' })).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Subscribe Now' })).toHaveAttribute('href', '/checkout/hhtraff');
    expect(screen.queryByRole('link', { name: /Launch WireWrite App/ })).not.toBeInTheDocument();
  });

  it('falls back to the short description', () => {
    mockFetch(() => jsonResponse(500, {}));
    renderProductPage('wirewrite', fixtureProduct('wirewrite'));
    expect(screen.getByText(/Electrical certificates drafted and issued from site/)).toBeInTheDocument();
  });

  it('shows the stock box in yellow below 10, green from 10 and red at 0 with OUT OF STOCK', async () => {
    const low = fixtureProduct('bluetooth-serial-adapter');
    serve(low);
    const first = renderProductPage(low.slug);
    let box = await screen.findByRole('region', { name: 'Stock Status' });
    expect(within(box).getByText('Only 4 left')).toHaveAttribute('data-level', 'low');
    expect(within(box).getByText('Only 4 left')).toHaveClass('text-yellow-700');
    expect(screen.getByText('Physical Product')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Buy Now' })).toHaveAttribute('href', '/checkout/bluetooth-serial-adapter');
    first.unmount();

    const plenty = fixtureProduct('usb-rs232-cable');
    renderProductPage(plenty.slug, plenty);
    box = screen.getByRole('region', { name: 'Stock Status' });
    expect(within(box).getByText('42 Available')).toHaveClass('text-green-700');
    expect(screen.getByText('$49.00')).toBeInTheDocument();
  });

  it('replaces the buy button with OUT OF STOCK when sold out', () => {
    const soldOut = fixtureProduct('hit-rs485-interface');
    mockFetch(() => jsonResponse(500, {}));
    renderProductPage(soldOut.slug, soldOut);
    const box = screen.getByRole('region', { name: 'Stock Status' });
    expect(within(box).getByText('Out of Stock')).toHaveClass('text-red-700');
    expect(screen.getByText('OUT OF STOCK')).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Buy Now' })).not.toBeInTheDocument();
  });

  it('hides the stock box for a physical product with a null quantity or no tracking', () => {
    mockFetch(() => jsonResponse(500, {}));
    const first = renderProductPage('usb-rs232-cable', { ...fixtureProduct('usb-rs232-cable'), stock_quantity: null });
    expect(screen.queryByRole('region', { name: 'Stock Status' })).not.toBeInTheDocument();
    first.unmount();
    renderProductPage('usb-rs232-cable', { ...fixtureProduct('usb-rs232-cable'), track_inventory: false });
    expect(screen.queryByRole('region', { name: 'Stock Status' })).not.toBeInTheDocument();
  });

  it("shows Coming Soon and no action for action_type 'none'", () => {
    mockFetch(() => jsonResponse(500, {}));
    renderProductPage('hhtraff', { ...fixtureProduct('hhtraff'), action_type: 'none', action_url: 'https://example.com' });
    expect(screen.getByText('Coming Soon')).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: /Subscribe Now/ })).not.toBeInTheDocument();
  });

  it('opens action_url in a new tab, and shows the WireWrite launch link', () => {
    mockFetch(() => jsonResponse(500, {}));
    renderProductPage('wirewrite', fixtureProduct('wirewrite'));
    const buy = screen.getByRole('link', { name: /Subscribe Now/ });
    expect(buy).toHaveAttribute('href', 'https://app.wirewrite.co.nz/');
    expect(buy).toHaveAttribute('target', '_blank');
    expect(buy).toHaveAttribute('rel', expect.stringContaining('noopener') as string);

    const launch = screen.getByRole('link', { name: /Launch WireWrite App/ });
    expect(launch).toHaveAttribute('href', 'https://app.wirewrite.co.nz');
    expect(launch).toHaveAttribute('target', '_blank');
    expect(launch).toHaveAttribute('rel', expect.stringContaining('noopener') as string);
  });

  it('hides the pricing section when show_pricing is false', () => {
    mockFetch(() => jsonResponse(500, {}));
    renderProductPage('hhtraff', { ...fixtureProduct('hhtraff'), show_pricing: false });
    expect(screen.queryByRole('region', { name: 'Pricing' })).not.toBeInTheDocument();
  });

  it('opens the picture in a full-screen lightbox that the close button and Escape close', async () => {
    mockFetch(() => jsonResponse(500, {}));
    const user = userEvent.setup();
    renderProductPage('hhtraff', fixtureProduct('hhtraff'));

    const enlarge = screen.getByRole('button', { name: 'Enlarge HHTraff Terminal picture' });
    // The visible text starts the accessible name (axe label-content-name-mismatch).
    expect(enlarge).toHaveTextContent('Enlarge');
    expect(enlarge).not.toHaveTextContent('Click to enlarge');
    expect(within(enlarge).getByRole('img', { name: 'HHTraff Terminal picture' })).toHaveAttribute('width', '800');
    expect(within(enlarge).getByRole('img', { name: 'HHTraff Terminal picture' })).toHaveAttribute('height', '500');
    await user.click(enlarge);
    // The lightbox's code loads on first use.
    const lightbox = await screen.findByRole('dialog', { name: 'HHTraff Terminal picture' });
    expect(lightbox).toHaveAttribute('aria-modal', 'true');
    expect(within(lightbox).getByRole('img', { name: 'HHTraff Terminal picture' })).toHaveAttribute(
      'src',
      '/products/hhtraff/hhtraff-screen.svg',
    );
    await user.click(within(lightbox).getByRole('button', { name: 'Close' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(enlarge).toHaveFocus();

    await user.click(enlarge);
    expect(screen.getByRole('dialog')).toBeInTheDocument();
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it("offers an upload's stored widths as srcset, sized to the picture's column", () => {
    mockFetch(() => jsonResponse(500, {}));
    const srcset = '/uploads/abc-w320.jpg 320w, /uploads/abc-w640.jpg 640w, /uploads/abc.jpg 900w';
    renderProductPage('hhtraff', { ...fixtureProduct('hhtraff'), picture_url: '/uploads/abc.jpg', picture_srcset: srcset });
    const picture = screen.getByRole('img', { name: 'HHTraff Terminal picture' });
    expect(picture).toHaveAttribute('src', '/uploads/abc.jpg');
    expect(picture).toHaveAttribute('srcset', srcset);
    expect(picture).toHaveAttribute('sizes', '(min-width: 1024px) 768px, 100vw');
  });

  it('has no srcset for a picture that is not an upload', () => {
    mockFetch(() => jsonResponse(500, {}));
    renderProductPage('hhtraff', fixtureProduct('hhtraff'));
    const picture = screen.getByRole('img', { name: 'HHTraff Terminal picture' });
    expect(picture).not.toHaveAttribute('srcset');
    expect(picture).not.toHaveAttribute('sizes');
  });

  it('hides a picture that fails to load', () => {
    mockFetch(() => jsonResponse(500, {}));
    renderProductPage('hhtraff', fixtureProduct('hhtraff'));
    const picture = screen.getByRole('img', { name: 'HHTraff Terminal picture' });
    fireEvent.error(picture);
    expect(screen.queryByRole('img', { name: 'HHTraff Terminal picture' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Enlarge/ })).not.toBeInTheDocument();
  });

  it('goes back to the products with Back to Products', async () => {
    mockFetch(() => jsonResponse(500, {}));
    const user = userEvent.setup();
    renderProductPage('hhtraff', fixtureProduct('hhtraff'));
    await user.click(screen.getByRole('button', { name: 'Back to Products' }));
    expect(screen.getByTestId('location')).toHaveTextContent(/^\/$/);
  });

  it('sets the document head on client-side navigation', async () => {
    serve(fixtureProduct('bluetooth-serial-adapter'));
    renderProductPage('bluetooth-serial-adapter');
    await screen.findByRole('heading', { level: 1, name: 'Bluetooth Serial Adapter' });
    expect(document.title).toBe('Bluetooth Serial Adapter | Signalcraft');
    expect(document.head.querySelector('meta[name="description"]')?.getAttribute('content')).toBe(
      'A cable-free RS-232 link: plug the DB9 adapter into the controller and pair your phone.',
    );
    expect(document.head.querySelector('meta[name="keywords"]')?.getAttribute('content')).toBe('Bluetooth serial adapter, RS-232, DB9');
    expect(document.head.querySelector('link[rel="canonical"]')?.getAttribute('href')).toMatch(/\/product\/bluetooth-serial-adapter$/);
    expect(document.head.querySelector('meta[property="og:type"]')?.getAttribute('content')).toBe('product');
  });
});
