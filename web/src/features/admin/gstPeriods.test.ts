import { describe, expect, it } from 'vitest';
import { defaultGstPeriod, formatDay, gstPeriods, nzToday, periodEnding } from './gstPeriods';

describe('GST periods', () => {
  it('reads today in New Zealand, whatever the browser’s zone', () => {
    // 11:30 UTC on 31 October is 12:30 am on 1 November in New Zealand (NZDT).
    expect(nzToday(new Date('2026-10-31T11:30:00Z'))).toBe('2026-11-01');
    expect(nzToday(new Date('2026-10-31T10:59:00Z'))).toBe('2026-10-31');
  });

  it('has two-monthly periods ending in an even month, with their last day', () => {
    expect(periodEnding(2026, 12)).toEqual({ from: '2026-11-01', to: '2026-12-31', label: 'Nov – Dec 2026' });
    expect(periodEnding(2028, 2)).toEqual({ from: '2028-01-01', to: '2028-02-29', label: 'Jan – Feb 2028' });
    expect(periodEnding(2027, 2).to).toBe('2027-02-28');
  });

  it('lists the current period and the eleven before it, newest first, across years', () => {
    const periods = gstPeriods('2026-12-02');
    expect(periods).toHaveLength(12);
    expect(periods.slice(0, 3).map((p) => p.label)).toEqual(['Nov – Dec 2026', 'Sep – Oct 2026', 'Jul – Aug 2026']);
    expect(periods.at(-1)).toEqual({ from: '2025-01-01', to: '2025-02-28', label: 'Jan – Feb 2025' });
    expect(gstPeriods('2027-01-15', 3).map((p) => p.label)).toEqual(['Jan – Feb 2027', 'Nov – Dec 2026', 'Sep – Oct 2026']);
  });

  it('opens on the latest period that has ended', () => {
    expect(defaultGstPeriod('2026-12-02').label).toBe('Sep – Oct 2026');
    expect(defaultGstPeriod('2027-01-01').label).toBe('Nov – Dec 2026');
    expect(defaultGstPeriod('2026-12-31').label).toBe('Sep – Oct 2026');
  });

  it('writes a calendar date the New Zealand way', () => {
    expect(formatDay('2026-11-01')).toBe('1 Nov 2026');
    expect(formatDay('2026-12-31')).toBe('31 Dec 2026');
    expect(formatDay('soon')).toBe('soon');
  });
});
