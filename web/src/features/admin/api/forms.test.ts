// Spec section 5's form rules, as the zod schemas beside the mutations apply them.
import { describe, expect, it } from 'vitest';
import { buildPlanBody, EMPTY_PLAN_FORM, planFormValuesOf } from './planForm';
import { buildProductBody, EMPTY_PRODUCT_FORM, formValuesOf, isBlankHtml, normaliseSlug, showsActionControls, type ProductFormValues } from './productForm';
import { product, plan } from '../testing';

const valid: ProductFormValues = { ...EMPTY_PRODUCT_FORM, name: 'WireWrite', slug: 'wirewrite' };

describe('product form', () => {
  it('requires name and slug', () => {
    const result = buildProductBody({ ...EMPTY_PRODUCT_FORM, name: '  ', slug: ' ' }, 'full');
    expect(result).toEqual({ ok: false, errors: { name: 'Name is required.', slug: 'Slug is required.' } });
  });

  it('stores the editor’s non-breaking spaces as spaces, so descriptions wrap', () => {
    const html = '<p>Captures&nbsp;every&nbsp;byte.&nbsp;<strong>Bold&nbsp;claim</strong></p>';
    const result = buildProductBody({ ...valid, description: html, description_detail: html }, 'full');
    expect(result.ok && result.body.description).toBe('<p>Captures every byte. <strong>Bold claim</strong></p>');
    expect(result.ok && result.body.description_detail).toBe('<p>Captures every byte. <strong>Bold claim</strong></p>');
  });

  it('lower-cases the slug and turns whitespace runs into hyphens', () => {
    expect(normaliseSlug('My  New\tProduct')).toBe('my-new-product');
    const result = buildProductBody({ ...valid, slug: 'Serial Tool X' }, 'full');
    expect(result.ok && result.body.slug).toBe('serial-tool-x');
  });

  it('accepts only an http(s) redirect URL, and only checks it when the action type shows it', () => {
    for (const url of ['javascript:alert(1)', 'ftp://x.test/file', 'not a url']) {
      expect(buildProductBody({ ...valid, action_type: 'external_link', action_url: url }, 'full')).toMatchObject({ ok: false, errors: { action_url: expect.any(String) as string } });
    }
    const ok = buildProductBody({ ...valid, action_type: 'external_link', action_url: 'https://play.google.com/store/apps/details?id=x' }, 'full');
    expect(ok.ok && ok.body.action_url).toBe('https://play.google.com/store/apps/details?id=x');
    // 'none' hides the URL: it is neither checked nor sent.
    const none = buildProductBody({ ...valid, action_type: 'none', action_url: 'javascript:x' }, 'full');
    expect(none.ok && none.body).toMatchObject({ action_type: 'none', action_url: null, show_pricing: true });
  });

  it('takes stock as a whole number of 0 or more; empty is null', () => {
    const physical = { ...valid, type: 'physical' as const, track_inventory: true };
    for (const stock of ['-1', '1.5', 'abc']) {
      expect(buildProductBody({ ...physical, stock_quantity: stock }, 'full')).toMatchObject({ ok: false, errors: { stock_quantity: 'Stock must be a whole number of 0 or more.' } });
    }
    const zero = buildProductBody({ ...physical, stock_quantity: '0' }, 'full');
    expect(zero.ok && zero.body.stock_quantity).toBe(0);
    const empty = buildProductBody({ ...physical, stock_quantity: '' }, 'full');
    expect(empty.ok && empty.body.stock_quantity).toBeNull();
    // Stock belongs to tracked physical products only.
    const untracked = buildProductBody({ ...physical, track_inventory: false, stock_quantity: '5' }, 'full');
    expect(untracked.ok && untracked.body).toMatchObject({ stock_quantity: null, track_inventory: false });
  });

  it('trims features, drops empties, and turns empty optional text into null', () => {
    const result = buildProductBody({ ...valid, features: ['  Logging ', '', '   ', 'Macros'], meta_keywords: '  ', description: '<p><br></p>' }, 'full');
    expect(result.ok && result.body).toMatchObject({ features: ['Logging', 'Macros'], meta_keywords: null, description: '', icon_url: '', description_detail: null, picture_url: null });
  });

  it('sends only the fields of the home and detail modes', () => {
    const values = formValuesOf(product());
    const home = buildProductBody({ ...values, description: '<h2>New</h2>' }, 'home');
    expect(home.ok && Object.keys(home.body).sort()).toEqual(['description', 'features', 'icon_url']);
    const detail = buildProductBody(values, 'detail');
    expect(detail.ok && Object.keys(detail.body).sort()).toEqual(['action_type', 'action_url', 'description_detail', 'meta_keywords', 'picture_url', 'show_pricing']);
    // A rule of a field the mode does not show does not block it.
    expect(buildProductBody({ ...values, name: '' }, 'home').ok).toBe(true);
  });

  it('converts the NZD price exactly and knows the action controls rule', () => {
    const result = buildProductBody({ ...valid, price_nzd: '19.99' }, 'full');
    expect(result.ok && result.body.price_nzd).toBe(1999);
    expect(buildProductBody({ ...valid, price_nzd: '0.005' }, 'full').ok).toBe(false);
    expect(showsActionControls('')).toBe(false);
    expect(showsActionControls('none')).toBe(false);
    expect(showsActionControls('google_play')).toBe(true);
    expect(isBlankHtml('<p> &nbsp;</p>')).toBe(true);
    expect(isBlankHtml('<p>x</p>')).toBe(false);
  });
});

describe('pricing plan form', () => {
  const base = { ...EMPTY_PLAN_FORM, name: 'Monthly' };

  it('sends the price as the string typed, with the other fields typed', () => {
    expect(buildPlanBody({ ...base, price: '19.99', currency: 'AUD', billing_frequency_value: '12', billing_frequency_unit: 'year', sort_order: '2' })).toEqual({
      ok: true,
      body: { name: 'Monthly', price: '19.99', currency: 'AUD', billing_frequency_value: 12, billing_frequency_unit: 'year', sort_order: 2, trial_days: 0 },
    });
  });

  it('sends trial days as a whole number from 0 to 90 (empty is 0), and refuses anything else', () => {
    for (const [typed, days] of [['14', 14], ['0', 0], ['90', 90], ['', 0], [' 7 ', 7]] as const) {
      expect(buildPlanBody({ ...base, price: '1', trial_days: typed })).toMatchObject({ ok: true, body: { trial_days: days } });
    }
    for (const typed of ['91', '-1', '1.5', 'two']) {
      expect(buildPlanBody({ ...base, price: '1', trial_days: typed })).toMatchObject({ ok: false, errors: { trial_days: 'Trial days must be a whole number from 0 to 90.' } });
    }
  });

  it('rejects 0.005, negative and missing prices, and a missing name', () => {
    for (const price of ['0.005', '-1', '', 'ten']) {
      const result = buildPlanBody({ ...base, price });
      expect(result.ok).toBe(false);
      expect(!result.ok && result.errors.price).toBeTruthy();
    }
    expect(buildPlanBody({ ...base, price: '0' }).ok).toBe(true);
    expect(buildPlanBody({ ...base, name: ' ', price: '1' })).toMatchObject({ ok: false, errors: { name: 'Plan name is required.' } });
  });

  it('allows only NZD, AUD, USD and 1, 3, 6 or 12 months or years', () => {
    expect(buildPlanBody({ ...base, price: '1', currency: 'EUR' }).ok).toBe(false);
    expect(buildPlanBody({ ...base, price: '1', billing_frequency_value: '2' }).ok).toBe(false);
    expect(buildPlanBody({ ...base, price: '1', billing_frequency_unit: 'week' }).ok).toBe(false);
  });

  it('fills the form from a stored plan in major units', () => {
    expect(planFormValuesOf(plan({ price_amount: 1999, sort_order: 3 }))).toMatchObject({ price: '19.99', sort_order: '3', billing_frequency_value: '1', trial_days: '0' });
    expect(planFormValuesOf(plan({ trial_days: 30 })).trial_days).toBe('30');
    // An older server without the field: no trial.
    expect(planFormValuesOf({ ...plan(), trial_days: undefined }).trial_days).toBe('0');
  });
});
