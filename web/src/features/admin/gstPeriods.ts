// New Zealand's two-monthly GST periods, as a GST return asks for them: each ends in an even month
// (Jan – Feb, ..., Nov – Dec), in New Zealand dates. Pure, so it is tested alone; "today" is the
// caller's (the browser's clock, read in Pacific/Auckland).
import { DISPLAY_TIME_ZONE } from '@/lib/format';

export interface GstPeriod {
  /** YYYY-MM-DD, the first day. */
  from: string;
  /** YYYY-MM-DD, the last day (inclusive). */
  to: string;
  /** "Nov – Dec 2026" */
  label: string;
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'] as const;

const isoDay = new Intl.DateTimeFormat('en-CA', { timeZone: DISPLAY_TIME_ZONE, year: 'numeric', month: '2-digit', day: '2-digit' });

/** Today's date in New Zealand (YYYY-MM-DD). */
export function nzToday(now: Date = new Date()): string {
  return isoDay.format(now);
}

function pad(n: number): string {
  return String(n).padStart(2, '0');
}

/** The period ending in `endMonth` (2, 4, ... 12) of `year`. */
export function periodEnding(year: number, endMonth: number): GstPeriod {
  const lastDay = new Date(Date.UTC(year, endMonth, 0)).getUTCDate();
  return {
    from: `${String(year)}-${pad(endMonth - 1)}-01`,
    to: `${String(year)}-${pad(endMonth)}-${pad(lastDay)}`,
    label: `${MONTHS[endMonth - 2] ?? ''} – ${MONTHS[endMonth - 1] ?? ''} ${String(year)}`,
  };
}

/** The period `today` (YYYY-MM-DD) is in, then the `count - 1` before it, newest first. */
export function gstPeriods(today: string, count = 12): GstPeriod[] {
  const [year = 1970, month = 1] = today.split('-').map(Number);
  let index = year * 12 + (month % 2 === 0 ? month : month + 1) - 1; // months since year 0, of the period's end
  const periods: GstPeriod[] = [];
  for (let i = 0; i < count; i++, index -= 2) periods.push(periodEnding(Math.floor(index / 12), (index % 12) + 1));
  return periods;
}

/** The period a report opens on: the latest that has ended (the one the next return is for). */
export function defaultGstPeriod(today: string): GstPeriod {
  const [, latestEnded] = gstPeriods(today, 2);
  return latestEnded ?? periodEnding(1970, 2);
}

const dayFormatter = new Intl.DateTimeFormat('en-NZ', { timeZone: 'UTC', day: 'numeric', month: 'short', year: 'numeric' });

/** "2026-11-01" → "1 Nov 2026" (a calendar date, no time zone to shift it); anything else as it is. */
export function formatDay(day: string): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  if (!match) return day;
  return dayFormatter.format(new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]))));
}
