// /admin/reports/gst: the GST report of a two-monthly GST period (the last twelve, newest first;
// it opens on the latest that has ended) or of any from/to dates (New Zealand dates, inclusive),
// the range in the address (?from=&to=). New Zealand dollars show as the figures a GST return asks
// for; other currencies in their own table, in their own currency. A refusal (422) or a failure
// shows as an alert, never as an empty report.
import { useSearchParams } from 'react-router';
import { SelectField } from '@/components/SelectField';
import { isAccessDenied, StaffPage, useLogLoadFailure } from '@/components/StaffPage';
import { errorMessage, isApiError } from '@/lib/api';
import { useGstReport } from '../api/getGstReport';
import { DateRangeForm } from '../components/DateRangeForm';
import { NzdFigures, OtherCurrencies } from '../components/GstFigures';
import { defaultGstPeriod, formatDay, gstPeriods, nzToday } from '../gstPeriods';

const CUSTOM = 'custom';

export function GstReportPage() {
  const [search, setSearch] = useSearchParams();
  const today = nzToday();
  const periods = gstPeriods(today);
  const fallback = defaultGstPeriod(today);
  const from = search.get('from') ?? fallback.from;
  const to = search.get('to') ?? fallback.to;
  const chosen = periods.find((period) => period.from === from && period.to === to);
  const report = useGstReport(from, to);
  useLogLoadFailure('the GST report', report.error);
  const fields = isApiError(report.error) ? report.error.fields : {};

  const show = (range: { from: string; to: string }) => {
    const next = new URLSearchParams(search);
    next.set('from', range.from);
    next.set('to', range.to);
    setSearch(next);
  };

  const options = periods.map((period) => ({ value: `${period.from}|${period.to}`, label: period.label }));
  if (!chosen) options.push({ value: CUSTOM, label: 'Custom dates' });
  const data = report.error ? undefined : report.data;
  const nzd = data?.currencies.find((row) => row.currency === 'NZD');
  const others = data?.currencies.filter((row) => row.currency !== 'NZD') ?? [];

  return (
    <StaffPage title="GST report" back={{ to: '/admin/invoices', label: 'Back to Invoices' }} error={report.error}>
      <div className="flex flex-wrap items-end gap-6 rounded-xl border border-slate-200 bg-white p-5 shadow-sm">
        <SelectField
          label="GST period"
          options={options}
          value={chosen ? `${chosen.from}|${chosen.to}` : CUSTOM}
          onChange={(event) => {
            const [start, end] = event.target.value.split('|');
            if (start && end) show({ from: start, to: end });
          }}
        />
        <DateRangeForm key={`${from}|${to}`} label="Report dates" from={from} to={to} submitLabel="Show report" errors={{ from: fields.from, to: fields.to }} onApply={show} />
      </div>
      {report.error && !isAccessDenied(report.error) ? (
        <p role="alert" className="rounded-lg border border-red-200 bg-red-50 p-4 text-sm text-red-800">
          {[errorMessage(report.error, 'The GST report could not be loaded.'), fields.from, fields.to].filter(Boolean).join(' ')}
        </p>
      ) : null}
      {report.isPending ? (
        <p role="status" className="py-12 text-center text-slate-500">
          Loading ...
        </p>
      ) : null}
      {data ? (
        <>
          <p className="text-sm text-slate-600">
            {chosen ? `${chosen.label}: ` : ''}
            {formatDay(data.from)} to {formatDay(data.to)}, New Zealand dates, documents issued on both days included.
          </p>
          <NzdFigures row={nzd} />
          {others.length > 0 ? <OtherCurrencies rows={others} /> : null}
        </>
      ) : null}
    </StaffPage>
  );
}
