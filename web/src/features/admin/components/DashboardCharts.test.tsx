import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { statsSeries } from '../testing';
import { DashboardCharts, ordersSummary, revenueSummary, subscriptionsSummary } from './DashboardCharts';
import type { TimeChartProps } from './TimeChart';

// jsdom has no canvas: the uPlot chart is replaced by a list of what it was asked to draw (the
// browser draws the real one: e2e/tests/admin-backoffice.spec.ts).
vi.mock('./TimeChart', () => ({
  default: ({ labels, lines, kind }: TimeChartProps) => (
    <div data-testid="chart" data-kind={kind}>
      {labels.length} {lines.map((l) => `${l.label}=${l.values.join(',')}`).join(' ')}
    </div>
  ),
}));

function withRevenue() {
  const base = statsSeries();
  return statsSeries({
    revenue_by_month: base.revenue_by_month.map((m, i) =>
      i === 10 ? { ...m, revenue: { NZD: 250000, AUD: 0, USD: 0 } } : i === 11 ? { ...m, revenue: { NZD: 125050, AUD: 4500, USD: 0 } } : m,
    ),
    orders_by_day: base.orders_by_day.map((d, i) => ({ ...d, orders: i === 29 ? 3 : i === 14 ? 5 : 0 })),
    subscriptions_by_month: base.subscriptions_by_month.map((m, i) => (i === 11 ? { ...m, new: 2, cancelled: 1 } : i === 3 ? { ...m, new: 4 } : m)),
  });
}

describe('chart summaries', () => {
  it('sum each currency apart and name the best month and day', () => {
    const s = withRevenue();
    expect(revenueSummary(s)).toBe(
      'Revenue over the last 12 months, net of refunds: NZD $3,750.50, highest in October 2026 ($2,500.00); AUD A$45.00, highest in November 2026 (A$45.00).',
    );
    expect(ordersSummary(s)).toBe('8 paid orders in the last 30 days; the busiest day was 12 November 2026 with 5.');
    expect(subscriptionsSummary(s)).toBe('Over the last 12 months: 6 new subscriptions and 1 cancellation. This month: 2 new and 1 cancelled.');
  });

  it('say so when there is nothing', () => {
    const s = statsSeries();
    expect(revenueSummary(s)).toBe('No revenue in the last 12 months.');
    expect(ordersSummary(s)).toBe('No paid orders in the last 30 days.');
    expect(subscriptionsSummary(s)).toBe('Over the last 12 months: 0 new subscriptions and 0 cancellations. This month: 0 new and 0 cancelled.');
  });

  it('count a refund month below zero against the year', () => {
    const base = statsSeries();
    const s = statsSeries({
      revenue_by_month: base.revenue_by_month.map((m, i) => (i === 0 ? { ...m, revenue: { NZD: -500, AUD: 0, USD: 0 } } : i === 1 ? { ...m, revenue: { NZD: 2000, AUD: 0, USD: 0 } } : m)),
    });
    expect(revenueSummary(s)).toBe('Revenue over the last 12 months, net of refunds: NZD $15.00, highest in January 2026 ($20.00).');
  });
});

describe('DashboardCharts', () => {
  it('gives each chart a heading, its summary and a table of every bucket', async () => {
    render(<DashboardCharts series={withRevenue()} />);
    const revenue = screen.getByRole('region', { name: 'Revenue per month' });
    expect(within(revenue).getByText(/^Revenue over the last 12 months/)).toBeInTheDocument();
    const table = within(revenue).getByRole('table', { name: 'Revenue per month, net of refunds, by currency' });
    // Currencies with money in them, every month, oldest first, zero months included.
    expect(within(table).getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['Month', 'NZD', 'AUD']);
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows).toHaveLength(12);
    expect(rows[0]?.textContent).toBe('December 2025$0.00A$0.00');
    expect(rows[11]?.textContent).toBe('November 2026$1,250.50A$45.00');
    // The chart draws the same numbers, in major units.
    expect(await within(revenue).findByTestId('chart')).toHaveTextContent('12 NZD=0,0,0,0,0,0,0,0,0,0,2500,1250.5 AUD=0,0,0,0,0,0,0,0,0,0,0,45');

    const orders = screen.getByRole('region', { name: 'Orders per day' });
    const orderRows = within(within(orders).getByRole('table')).getAllByRole('row').slice(1);
    expect(orderRows).toHaveLength(30);
    expect(orderRows[29]?.textContent).toBe('27 November 20263');
    expect(orderRows[0]?.textContent).toBe('29 October 20260');
    expect(await within(orders).findByTestId('chart')).toHaveAttribute('data-kind', 'bars');

    const subscriptions = screen.getByRole('region', { name: 'Subscriptions per month' });
    expect(within(subscriptions).getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['Month', 'New', 'Cancelled']);
    expect(within(subscriptions).getAllByRole('row').at(-1)?.textContent).toBe('November 202621');
  });

  it('keeps the tables for screen readers and shows one on screen on request', async () => {
    const user = userEvent.setup();
    render(<DashboardCharts series={withRevenue()} />);
    const orders = screen.getByRole('region', { name: 'Orders per day' });
    const table = within(orders).getByRole('table');
    expect(table.parentElement).toHaveClass('sr-only');
    await user.click(within(orders).getByRole('button', { name: 'Show table' }));
    expect(table.parentElement).not.toHaveClass('sr-only');
    expect(within(orders).getByRole('button', { name: 'Hide table' })).toHaveAttribute('aria-controls', table.id);
    // The other charts' tables stay visually hidden.
    expect(within(screen.getByRole('region', { name: 'Revenue per month' })).getByRole('table').parentElement).toHaveClass('sr-only');
  });

  it('shows NZD alone when no currency has money', () => {
    render(<DashboardCharts series={statsSeries()} />);
    const table = within(screen.getByRole('region', { name: 'Revenue per month' })).getByRole('table');
    expect(within(table).getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['Month', 'NZD']);
  });
});
