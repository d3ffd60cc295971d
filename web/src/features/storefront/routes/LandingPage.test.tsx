import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { fixtureProducts } from '@/dev/fixtures';
import { createTestQueryClient, jsonResponse, mockFetch, renderRoute } from '@/test/utils';
import { productKeys } from '../api/products';
import { LANDING_HEAD, LandingPage } from './LandingPage';

function renderLanding({ seeded = true, onContactSales = vi.fn() } = {}) {
  const queryClient = createTestQueryClient();
  if (seeded) queryClient.setQueryData(productKeys.list(), fixtureProducts);
  renderRoute(<LandingPage onContactSales={onContactSales} />, { path: '/', initialEntry: '/', queryClient });
  return { onContactSales };
}

function card(name: string) {
  return screen.getByRole('article', { name });
}

describe('LandingPage', () => {
  it('shows the headline and the company blurb', () => {
    mockFetch(() => jsonResponse(500, {}));
    renderLanding();
    expect(screen.getByRole('heading', { level: 1 })).toBeInTheDocument();
    expect(screen.getByText(/an industrial handheld terminal app for the technicians and engineers/)).toBeInTheDocument();
    expect(screen.getByText(/Available now on Android/)).toBeInTheDocument();
    expect(screen.getByText('iOS coming soon.')).toBeInTheDocument();
  });

  it('renders seeded products without a request, each with a View Details link', () => {
    const fetchMock = mockFetch(() => jsonResponse(500, {}));
    renderLanding();
    expect(fetchMock).not.toHaveBeenCalled();
    expect(screen.getAllByRole('article')).toHaveLength(5);
    const hhtraff = card('HHTraff Terminal');
    expect(within(hhtraff).getByText(/industrial handheld terminal app for traffic control systems/)).toBeInTheDocument();
    expect(within(hhtraff).getAllByRole('listitem')).toHaveLength(4);
    expect(within(hhtraff).getByRole('link', { name: /View Details/ })).toHaveAttribute('href', '/product/hhtraff');
  });

  it('fetches the products when there is no initial data', async () => {
    const fetchMock = mockFetch(() => jsonResponse(200, { products: fixtureProducts.slice(0, 2) }));
    renderLanding({ seeded: false });
    expect(screen.getByText('Loading products...')).toBeInTheDocument();
    expect(await screen.findAllByRole('article')).toHaveLength(2);
    expect(fetchMock).toHaveBeenCalledWith('/api/v1/products', expect.anything());
  });

  it('logs a failed list load and shows an empty list', async () => {
    mockFetch(() => jsonResponse(500, { code: 'internal', message: 'boom' }));
    const log = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    renderLanding({ seeded: false });
    await vi.waitFor(() => expect(log).toHaveBeenCalled());
    expect(screen.queryAllByRole('article')).toHaveLength(0);
  });

  it('shows stock counts in yellow below 10 and green otherwise, and SOLD OUT at 0', () => {
    mockFetch(() => jsonResponse(500, {}));
    renderLanding();
    expect(within(card('Bluetooth Serial Adapter')).getByText('4 in stock')).toHaveClass('text-yellow-800');
    expect(within(card('USB to RS-232 Serial Cable')).getByText('42 in stock')).toHaveClass('text-green-800');

    const soldOut = card('HIT RS-422/485 Interface');
    expect(within(soldOut).getByText('SOLD OUT')).toBeInTheDocument();
    expect(within(soldOut).getByText('This item is currently out of stock')).toBeInTheDocument();
    expect(within(soldOut).queryByText(/in stock$/)).not.toBeInTheDocument();

    expect(within(card('HHTraff Terminal')).queryByText(/in stock/)).not.toBeInTheDocument();
    expect(within(card('HHTraff Terminal')).queryByText('SOLD OUT')).not.toBeInTheDocument();
  });

  it('links to the beta testing group in a new tab', () => {
    mockFetch(() => jsonResponse(500, {}));
    renderLanding();
    const links = screen.getAllByRole('link', { name: /beta/i });
    expect(links.length).toBeGreaterThan(0);
    for (const link of links) {
      expect(link).toHaveAttribute('href', 'https://play.google.com/apps/testing/nz.co.signalcraft.hhtraff');
      expect(link).toHaveAttribute('target', '_blank');
      expect(link).toHaveAttribute('rel', expect.stringContaining('noopener') as string);
    }
  });

  it('opens Contact Sales from the Enterprise Solutions block and its get-started action', async () => {
    mockFetch(() => jsonResponse(500, {}));
    const user = userEvent.setup();
    const { onContactSales } = renderLanding();
    const enterprise = screen.getByRole('region', { name: 'Enterprise Solutions' });
    await user.click(within(enterprise).getByRole('button', { name: 'Contact Sales' }));
    await user.click(within(enterprise).getByRole('button', { name: 'Get Started' }));
    expect(onContactSales).toHaveBeenCalledTimes(2);
  });

  it('has a meta description of at most 160 characters', () => {
    expect(LANDING_HEAD.description?.length).toBeLessThanOrEqual(160);
  });
});
