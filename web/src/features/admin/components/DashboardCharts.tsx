// The dashboard's charts (GET /api/v1/admin/stats/series): revenue per month per currency (the
// payments ledger's net), paid orders per day, new and ended subscriptions per month, all in New
// Zealand days and months. Each chart has a one-sentence summary and its numbers in a table: the
// table is always there for screen readers and "Show table" shows it on screen; the canvas itself
// (TimeChart, uPlot, its own lazy chunk) is hidden from assistive technology.
import { lazy, Suspense, useId, useMemo, useState, type ReactNode } from 'react';
import { formatMoney } from '@/lib/format';
import type { StatsSeries } from '../api/getStatsSeries';
import type { ChartLine } from './TimeChart';

const TimeChart = lazy(() => import('./TimeChart'));

const CURRENCY_COLORS: Record<string, string> = { NZD: '#2563eb', AUD: '#d97706', USD: '#059669' };
const ORDERS_COLOR = '#2563eb';
const NEW_COLOR = '#059669';
const ENDED_COLOR = '#e11d48';

const monthShort = new Intl.DateTimeFormat('en-NZ', { timeZone: 'UTC', month: 'short', year: 'numeric' });
const monthLong = new Intl.DateTimeFormat('en-NZ', { timeZone: 'UTC', month: 'long', year: 'numeric' });
const dayShort = new Intl.DateTimeFormat('en-NZ', { timeZone: 'UTC', day: 'numeric', month: 'short' });
const dayLong = new Intl.DateTimeFormat('en-NZ', { timeZone: 'UTC', day: 'numeric', month: 'long', year: 'numeric' });
const count = new Intl.NumberFormat('en-NZ', { maximumFractionDigits: 0 });

// The server's labels are New Zealand calendar dates ("2026-11", "2026-11-27"): formatted as dates
// of their own, never moved through a time zone.
function calendar(label: string): Date {
  const [y = 0, m = 1, d = 1] = label.split('-').map(Number);
  return new Date(Date.UTC(y, m - 1, d));
}
export const monthLabel = (label: string, long = false) => (long ? monthLong : monthShort).format(calendar(label));
export const dayLabel = (label: string, long = false) => (long ? dayLong : dayShort).format(calendar(label));

function plural(n: number, one: string, many: string): string {
  return `${count.format(n)} ${n === 1 ? one : many}`;
}

/** The currencies with money in them over the year (NZD when there is none). */
export function chartCurrencies(series: StatsSeries): string[] {
  const used = series.currencies.filter((c) => series.revenue_by_month.some((m) => (m.revenue[c] ?? 0) !== 0));
  return used.length > 0 ? used : ['NZD'];
}

/** The index of the largest value (the first of equals). */
function peak(values: number[]): number {
  return values.reduce((best, v, i) => (v > (values[best] ?? 0) ? i : best), 0);
}

export function revenueSummary(series: StatsSeries): string {
  const months = series.revenue_by_month;
  const parts = chartCurrencies(series)
    .map((currency) => {
      const values = months.map((m) => m.revenue[currency] ?? 0);
      const total = values.reduce((a, b) => a + b, 0);
      if (values.every((v) => v === 0)) return null;
      const top = peak(values);
      return `${currency} ${formatMoney(total, currency)}, highest in ${monthLabel(months[top]?.month ?? '', true)} (${formatMoney(values[top] ?? 0, currency)})`;
    })
    .filter((part): part is string => part !== null);
  if (parts.length === 0) return `No revenue in the last ${String(months.length)} months.`;
  return `Revenue over the last ${String(months.length)} months, net of refunds: ${parts.join('; ')}.`;
}

export function ordersSummary(series: StatsSeries): string {
  const days = series.orders_by_day;
  const values = days.map((d) => d.orders);
  const total = values.reduce((a, b) => a + b, 0);
  if (total === 0) return `No paid orders in the last ${String(days.length)} days.`;
  const top = peak(values);
  return (
    `${plural(total, 'paid order', 'paid orders')} in the last ${String(days.length)} days; ` +
    `the busiest day was ${dayLabel(days[top]?.day ?? '', true)} with ${count.format(values[top] ?? 0)}.`
  );
}

export function subscriptionsSummary(series: StatsSeries): string {
  const months = series.subscriptions_by_month;
  const started = months.reduce((a, m) => a + m.new, 0);
  const ended = months.reduce((a, m) => a + m.cancelled, 0);
  const last = months[months.length - 1];
  return (
    `Over the last ${String(months.length)} months: ${plural(started, 'new subscription', 'new subscriptions')} and ` +
    `${plural(ended, 'cancellation', 'cancellations')}. This month: ${count.format(last?.new ?? 0)} new and ${count.format(last?.cancelled ?? 0)} cancelled.`
  );
}

interface ChartPanelProps {
  title: string;
  summary: string;
  caption: string;
  chart: ReactNode;
  head: string[];
  rows: { key: string; cells: string[] }[];
}

function ChartPanel({ title, summary, caption, chart, head, rows }: ChartPanelProps) {
  const id = useId();
  const [showTable, setShowTable] = useState(false);
  return (
    <section aria-labelledby={`${id}-title`} className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <h2 id={`${id}-title`} className="text-lg font-semibold text-slate-900">
          {title}
        </h2>
        <button type="button" className="btn-secondary" aria-controls={`${id}-table`} onClick={() => setShowTable((s) => !s)}>
          {showTable ? 'Hide table' : 'Show table'}
        </button>
      </div>
      <p className="mt-1 text-sm text-slate-600">{summary}</p>
      <div className="mt-4">
        <Suspense fallback={<div className="min-h-60" />}>{chart}</Suspense>
      </div>
      <div className={showTable ? 'mt-4' : 'sr-only'}>
        <table id={`${id}-table`} className="w-full text-left text-sm">
          <caption className="sr-only">{caption}</caption>
          <thead>
            <tr>
              {head.map((h, i) => (
                <th key={h} scope="col" className={`border-b border-slate-200 px-2 py-1 font-medium text-slate-700 ${i > 0 ? 'text-right' : ''}`}>
                  {h}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={row.key}>
                {row.cells.map((cell, i) =>
                  i === 0 ? (
                    <th key={i} scope="row" className="border-b border-slate-100 px-2 py-1 font-normal text-slate-700">
                      {cell}
                    </th>
                  ) : (
                    <td key={i} className="border-b border-slate-100 px-2 py-1 text-right tabular-nums text-slate-900">
                      {cell}
                    </td>
                  ),
                )}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}

// Axis and legend numbers: counts, and revenue in major units (the table has the currency).
const plainCount = (v: number) => count.format(v);

export function DashboardCharts({ series }: { series: StatsSeries }) {
  const charts = useMemo(() => {
    const currencies = chartCurrencies(series);
    const months = series.revenue_by_month;
    const revenueLines: ChartLine[] = currencies.map((c) => ({
      label: c,
      values: months.map((m) => (m.revenue[c] ?? 0) / 100),
      color: CURRENCY_COLORS[c] ?? '#475569',
    }));
    const subscriptionMonths = series.subscriptions_by_month;
    return {
      currencies,
      monthLabels: months.map((m) => monthLabel(m.month)),
      revenueLines,
      dayLabels: series.orders_by_day.map((d) => dayLabel(d.day)),
      orderLines: [{ label: 'Paid orders', values: series.orders_by_day.map((d) => d.orders), color: ORDERS_COLOR }],
      subscriptionLabels: subscriptionMonths.map((m) => monthLabel(m.month)),
      subscriptionLines: [
        { label: 'New', values: subscriptionMonths.map((m) => m.new), color: NEW_COLOR },
        { label: 'Cancelled', values: subscriptionMonths.map((m) => m.cancelled), color: ENDED_COLOR },
      ],
    };
  }, [series]);

  return (
    <div className="grid gap-4 lg:grid-cols-2">
      <div className="lg:col-span-2">
        <ChartPanel
          title="Revenue per month"
          summary={revenueSummary(series)}
          caption="Revenue per month, net of refunds, by currency"
          chart={<TimeChart kind="lines" labels={charts.monthLabels} lines={charts.revenueLines} formatValue={plainCount} />}
          head={['Month', ...charts.currencies]}
          rows={series.revenue_by_month.map((m) => ({
            key: m.month,
            cells: [monthLabel(m.month, true), ...charts.currencies.map((c) => formatMoney(m.revenue[c] ?? 0, c))],
          }))}
        />
      </div>
      <ChartPanel
        title="Orders per day"
        summary={ordersSummary(series)}
        caption="Paid orders per day, last 30 days"
        chart={<TimeChart kind="bars" labels={charts.dayLabels} lines={charts.orderLines} formatValue={plainCount} />}
        head={['Day', 'Paid orders']}
        rows={series.orders_by_day.map((d) => ({ key: d.day, cells: [dayLabel(d.day, true), count.format(d.orders)] }))}
      />
      <ChartPanel
        title="Subscriptions per month"
        summary={subscriptionsSummary(series)}
        caption="New and cancelled subscriptions per month"
        chart={<TimeChart kind="lines" labels={charts.subscriptionLabels} lines={charts.subscriptionLines} formatValue={plainCount} />}
        head={['Month', 'New', 'Cancelled']}
        rows={series.subscriptions_by_month.map((m) => ({
          key: m.month,
          cells: [monthLabel(m.month, true), count.format(m.new), count.format(m.cancelled)],
        }))}
      />
    </div>
  );
}
