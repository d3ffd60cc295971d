import { describe, expect, it } from 'vitest';
import { readTestPayments } from './testPayments';

function documentWith(html: string): Document {
  return new DOMParser().parseFromString(`<!doctype html><html><body>${html}</body></html>`, 'text/html');
}

const block = (text: string) => `<script id="initial-data" type="application/json">${text}</script>`;

describe('readTestPayments', () => {
  it('is true only when the initial data says test_payments: true', () => {
    expect(readTestPayments(documentWith(block('{"page":"app","test_payments":true}')))).toBe(true);
    expect(readTestPayments(documentWith(block('{"page":"landing","products":[],"test_payments":true}')))).toBe(true);
    expect(readTestPayments(documentWith(block('{"page":"app"}')))).toBe(false);
    expect(readTestPayments(documentWith(block('{"page":"app","test_payments":"true"}')))).toBe(false);
    expect(readTestPayments(documentWith(block('not json')))).toBe(false);
    expect(readTestPayments(documentWith('<div id="root"></div>'))).toBe(false);
  });
});
