import { describe, expect, it } from 'vitest';
import { majorToMinor, minorToMajor } from './money';

describe('major and minor units', () => {
  it('converts typed prices exactly, never through a float', () => {
    expect(majorToMinor('19.99')).toBe(1999);
    expect(majorToMinor('0.29')).toBe(29);
    expect(majorToMinor('1.1')).toBe(110);
    expect(majorToMinor('1005')).toBe(100500);
    expect(majorToMinor(' 0 ')).toBe(0);
    // 19.99 * 100 in floating point is 1998.9999999999998.
    expect(Math.trunc(19.99 * 100)).toBe(1998);
  });

  it('rejects what is not a price of 0 or more with at most 2 decimals', () => {
    for (const text of ['0.005', '-1', '-0.01', '1e3', 'abc', '', '.5', '1.', '1,50']) expect(majorToMinor(text)).toBeNull();
  });

  it('writes stored amounts back as form text', () => {
    expect(minorToMajor(1999)).toBe('19.99');
    expect(minorToMajor(500)).toBe('5.00');
    expect(minorToMajor(5)).toBe('0.05');
    expect(minorToMajor(0)).toBe('0.00');
  });
});
