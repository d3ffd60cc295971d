import { describe, expect, it } from 'vitest';
import type { ActiveSubscription, Subscription } from './api/dashboard';
import {
  calendarDaysBetween,
  cancelTexts,
  countActive,
  expiryText,
  isEnded,
  orderBadge,
  pastDueWarning,
  subscriptionDisplay,
  subscriptionEndText,
  subscriptionEntries,
  underscoresAsSpaces,
} from './rules';

// 00:00 UTC on 10 October 2025 is 13:00 on 10 October in New Zealand (NZDT, UTC+13).
const NOW = Date.parse('2025-10-10T00:00:00Z');

describe('expiryText', () => {
  it.each([
    ['no expiry', null, 'Never expires'],
    ['a moment ago', '2025-10-09T23:59:59.999Z', 'Expired'],
    ['exactly now', '2025-10-10T00:00:00.000Z', 'Expired'],
    ['last year', '2024-10-10T00:00:00Z', 'Expired'],
    ['a moment from now', '2025-10-10T00:00:00.001Z', 'Expires today'],
    ['the last second of the NZ day', '2025-10-10T10:59:59Z', 'Expires today'],
    ['NZ midnight (11 hours away)', '2025-10-10T11:00:00Z', 'Expires tomorrow'],
    ['the last second of the next NZ day', '2025-10-11T10:59:59Z', 'Expires tomorrow'],
    ['two NZ days on', '2025-10-11T11:00:00Z', 'Expires in 2 days'],
    ['three NZ days on', '2025-10-13T00:00:00Z', 'Expires in 3 days'],
    ['the last second of the seventh NZ day', '2025-10-17T10:59:59Z', 'Expires in 7 days'],
    ['the eighth NZ day', '2025-10-17T11:00:00Z', 'Expires 18 Oct 2025'],
    ['next year', '2026-02-01T00:00:00Z', 'Expires 1 Feb 2026'],
  ])('%s: %s gives %s', (_name, expiresAt, text) => {
    expect(expiryText(expiresAt, NOW)).toBe(text);
  });

  it('counts New Zealand calendar days, not 24-hour periods: late at night, one hour away is tomorrow', () => {
    const lateEvening = Date.parse('2025-10-10T10:30:00Z'); // 23:30 NZDT
    expect(expiryText('2025-10-10T11:30:00Z', lateEvening)).toBe('Expires tomorrow'); // 00:30 the next NZ day
    expect(expiryText('2025-10-10T10:45:00Z', lateEvening)).toBe('Expires today');
  });

  it('counts calendar days across the end of daylight saving (5 April 2026)', () => {
    const now = Date.parse('2026-04-04T00:00:00Z'); // 13:00 NZDT, 4 April
    expect(expiryText('2026-04-05T11:30:00Z', now)).toBe('Expires tomorrow'); // 23:30 NZST, 5 April: 35.5 h away
    expect(expiryText('2026-04-05T12:30:00Z', now)).toBe('Expires in 2 days'); // 00:30 NZST, 6 April
    expect(calendarDaysBetween(now, Date.parse('2026-04-11T11:59:00Z'))).toBe(7); // 23:59 NZST, 11 April
    expect(expiryText('2026-04-11T11:59:00Z', now)).toBe('Expires in 7 days');
    expect(expiryText('2026-04-11T12:00:00Z', now)).toBe('Expires 12 Apr 2026');
  });

  it('gives nothing for an unreadable date', () => {
    expect(expiryText('soon', NOW)).toBe('');
  });
});

describe('subscriptionDisplay', () => {
  it('shows active as a green tick, trial as a yellow warning, anything else as a red cross', () => {
    expect(subscriptionDisplay('active')).toEqual({ tone: 'active', label: 'Active' });
    expect(subscriptionDisplay('trial')).toEqual({ tone: 'trial', label: 'Trial' });
    expect(subscriptionDisplay('trialing')).toEqual({ tone: 'trial', label: 'Trial' });
    expect(subscriptionDisplay('cancelled')).toEqual({ tone: 'inactive', label: 'Cancelled' });
    expect(subscriptionDisplay('past_due')).toEqual({ tone: 'inactive', label: 'Past due' });
    expect(subscriptionDisplay('')).toEqual({ tone: 'inactive', label: 'Inactive' });
  });
});

describe('underscoresAsSpaces', () => {
  it('shows source words separated by underscores as words', () => {
    expect(underscoresAsSpaces('stripe_subscription')).toBe('stripe subscription');
    expect(underscoresAsSpaces('test_checkout')).toBe('test checkout');
    expect(underscoresAsSpaces('enterprise__licence_')).toBe('enterprise licence');
    expect(underscoresAsSpaces('manual')).toBe('manual');
  });
});

describe('orderBadge', () => {
  it.each([
    ['completed', 'green', 'Completed'],
    ['shipped', 'blue', 'Shipped'],
    ['paid', 'grey', 'Paid'],
    ['pending', 'grey', 'Pending'],
    ['cancelled', 'grey', 'Cancelled'],
    ['something_new', 'grey', 'Something new'],
  ])('%s is %s', (status, tone, label) => {
    expect(orderBadge(status)).toEqual({ tone, label });
  });
});

describe('countActive', () => {
  it('counts subscriptions whose status is active', () => {
    expect(countActive([{ status: 'active' }, { status: 'trialing' }, { status: 'cancelled' }, { status: 'active' }])).toBe(2);
    expect(countActive([])).toBe(0);
  });
});

function row(id: string, status: string, slug: string, fields: Partial<Subscription> = {}): Subscription {
  return {
    id,
    status,
    payment_provider: 'stripe',
    current_period_end: '2025-11-01T00:00:00Z',
    cancel_at_period_end: false,
    created_at: '2025-10-01T00:00:00Z',
    product: { id: slug, slug, name: slug, price_nzd: 1500, billing_interval: 'month' },
    plan: null,
    ...fields,
  };
}

function access(slug: string, expiresAt: string | null = '2025-11-01T00:00:00Z'): ActiveSubscription {
  return { product_name: slug, product_slug: slug, status: 'active', subscription_source: 'stripe_subscription', expires_at: expiresAt };
}

describe('subscriptionEntries', () => {
  it('pairs each access result with the newest current subscription to its product, then adds the unpaired current ones', () => {
    const rows = [row('new', 'active', 'hhtraff'), row('old', 'active', 'hhtraff'), row('late', 'past_due', 'wirewrite'), row('gone', 'cancelled', 'hhtraff'), row('wait', 'pending', 'usb')];
    const entries = subscriptionEntries(rows, [access('hhtraff'), access('seat', null)]);
    expect(entries.map((entry) => [entry.active?.product_slug ?? null, entry.subscription?.id ?? null])).toEqual([
      ['hhtraff', 'new'],
      ['seat', null],
      [null, 'old'],
      [null, 'late'],
    ]);
  });

  it('is empty with neither', () => {
    expect(subscriptionEntries([row('gone', 'expired', 'hhtraff')], [])).toEqual([]);
  });
});

describe('isEnded', () => {
  it('is cancelled and expired only', () => {
    expect(['cancelled', 'expired', 'active', 'trialing', 'past_due', 'pending'].map(isEnded)).toEqual([true, true, false, false, false, false]);
  });
});

describe('subscriptionEndText', () => {
  it('says Ends on for one cancelling at the period end (the access end, else the period end)', () => {
    const cancelling = row('s', 'active', 'hhtraff', { cancel_at_period_end: true, access_ends_at: '2025-11-01T00:00:00Z' });
    expect(subscriptionEndText({ subscription: cancelling, active: access('hhtraff') }, NOW)).toBe('Ends on 1 Nov 2025');
    expect(subscriptionEndText({ subscription: { ...cancelling, access_ends_at: null }, active: null }, NOW)).toBe('Ends on 1 Nov 2025');
  });

  it('says when a trial ends, nothing for past due, and the expiry text otherwise', () => {
    expect(subscriptionEndText({ subscription: row('t', 'trialing', 'w', { trial_end: '2025-10-24T00:00:00Z' }), active: null }, NOW)).toBe('Trial ends on 24 Oct 2025');
    expect(subscriptionEndText({ subscription: row('p', 'past_due', 'w'), active: access('w') }, NOW)).toBe('');
    expect(subscriptionEndText({ subscription: row('a', 'active', 'w'), active: access('w', '2025-10-13T00:00:00Z') }, NOW)).toBe('Expires in 3 days');
    expect(subscriptionEndText({ subscription: null, active: access('seat', null) }, NOW)).toBe('Never expires');
    expect(subscriptionEndText({ subscription: row('a', 'active', 'w'), active: null }, NOW)).toBe('Expires 1 Nov 2025');
  });
});

describe('pastDueWarning', () => {
  it('gives the date to pay by within the grace period, and says access is gone after it', () => {
    expect(pastDueWarning('2025-10-17T00:00:00Z', NOW)).toBe('Payment failed: update your payment method by 17 Oct 2025 to keep access.');
    expect(pastDueWarning('2025-10-10T00:00:00Z', NOW)).toBe('Payment overdue: update your payment method to restore access.');
    expect(pastDueWarning('2025-10-01T00:00:00Z', NOW)).toBe('Payment overdue: update your payment method to restore access.');
    expect(pastDueWarning(null, NOW)).toBe('Payment failed: update your payment method to keep access.');
  });
});

describe('cancelTexts', () => {
  it('says until when access stays, and when a resumed subscription renews', () => {
    expect(cancelTexts.atPeriodEnd({ access_ends_at: null, current_period_end: '2025-11-01T00:00:00Z' })).toBe('You keep access until 1 Nov 2025.');
    expect(cancelTexts.atPeriodEnd({ access_ends_at: '2025-10-24T00:00:00Z', current_period_end: '2025-11-01T00:00:00Z' })).toBe('You keep access until 24 Oct 2025.');
    expect(cancelTexts.atPeriodEnd({ access_ends_at: null, current_period_end: null })).toBe('You keep access until the end of the period.');
    expect(cancelTexts.resume({ current_period_end: '2025-11-01T00:00:00Z' })).toBe('Your subscription will renew on 1 Nov 2025.');
  });
});
