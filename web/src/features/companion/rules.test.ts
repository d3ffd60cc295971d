import { describe, expect, it } from 'vitest';
import { durationText, expiryText, oneDecimal, usageText, workerName } from './rules';

describe('WireWrite display rules', () => {
  it("says a duration as 'N month(s)' or 'Lifetime'", () => {
    expect(durationText(null)).toBe('Lifetime');
    expect(durationText(1)).toBe('1 month');
    expect(durationText(12)).toBe('12 months');
  });
  it("says usage as 'uses / max' or with an infinity sign", () => {
    expect(usageText(2, 5)).toBe('2 / 5');
    expect(usageText(7, null)).toBe('7 / ∞');
  });
  it("says an expiry as an en-NZ date or 'Never'", () => {
    expect(expiryText(null)).toBe('Never');
    expect(expiryText('2026-03-01T00:00:00.000Z')).toBe('1 Mar 2026');
  });
  it('keeps exactly one decimal', () => {
    expect(oneDecimal(25)).toBe('25.0');
    expect(oneDecimal(33.333)).toBe('33.3');
  });
  it("calls an unnamed worker 'Unknown'", () => {
    expect(workerName(null)).toBe('Unknown');
    expect(workerName('  ')).toBe('Unknown');
    expect(workerName('Aroha')).toBe('Aroha');
    expect(workerName(null, 'sparky@example.co.nz')).toBe('sparky@example.co.nz');
    expect(workerName(' ', ' ')).toBe('Unknown');
    expect(workerName('Aroha', 'aroha@example.co.nz')).toBe('Aroha');
  });
});
