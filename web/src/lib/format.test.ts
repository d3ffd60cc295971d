import { describe, expect, it } from 'vitest';
import { formatDate, formatMoney } from './format';

describe('formatMoney', () => {
  it('divides minor units by 100 and formats NZD for en-NZ by default', () => {
    expect(formatMoney(1500)).toBe('$15.00');
    expect(formatMoney(4900, 'NZD')).toBe('$49.00');
    expect(formatMoney(123456789)).toBe('$1,234,567.89');
    expect(formatMoney(5)).toBe('$0.05');
    expect(formatMoney(0)).toBe('$0.00');
  });

  it('marks other currencies the en-NZ way', () => {
    expect(formatMoney(1500, 'AUD')).toBe('A$15.00');
    expect(formatMoney(123450, 'USD')).toBe('US$1,234.50');
  });

  it('accepts lower-case currency codes', () => {
    expect(formatMoney(1000, 'usd')).toBe('US$10.00');
  });

  it('formats negative amounts', () => {
    expect(formatMoney(-300)).toBe('-$3.00');
  });
});

describe('formatDate', () => {
  it('shows the date in Pacific/Auckland, not UTC', () => {
    // 11:30 UTC on 1 October is 00:30 on 2 October in New Zealand daylight time (UTC+13).
    expect(formatDate('2025-10-01T11:30:00Z')).toBe('2 Oct 2025');
    // 11:30 UTC on 1 June is 23:30 the same day in New Zealand standard time (UTC+12).
    expect(formatDate('2025-06-01T11:30:00Z')).toBe('1 Jun 2025');
  });

  it('adds the time when asked', () => {
    expect(formatDate('2025-10-01T11:30:00Z', { withTime: true })).toBe('2 Oct 2025, 12:30 am');
    expect(formatDate(new Date('2025-01-15T03:05:00Z'), { withTime: true })).toBe('15 Jan 2025, 4:05 pm');
  });

  it('gives an empty string for a value that is not a date', () => {
    expect(formatDate('not a date')).toBe('');
  });
});
