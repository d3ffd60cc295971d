import { describe, expect, it } from 'vitest';
import { fixtureProduct, fixtureProducts } from '@/dev/fixtures';
import { parseInitialData, readInitialData } from './initialData';

function documentWith(html: string): Document {
  return new DOMParser().parseFromString(`<!doctype html><html><body>${html}</body></html>`, 'text/html');
}

function block(text: string): string {
  return `<script id="initial-data" type="application/json">${text}</script>`;
}

describe('readInitialData', () => {
  it('returns null when the page has no initial-data block', () => {
    expect(readInitialData(documentWith('<div id="root"></div>'))).toBeNull();
  });

  it('returns null for an empty block', () => {
    expect(readInitialData(documentWith(block('')))).toBeNull();
  });

  it('returns null for malformed JSON', () => {
    expect(readInitialData(documentWith(block('{"page": "landing", products: [}')))).toBeNull();
    expect(readInitialData(documentWith(block('<!--app-data-->')))).toBeNull();
  });

  it('returns null for JSON of an unknown shape', () => {
    expect(readInitialData(documentWith(block('[1, 2, 3]')))).toBeNull();
    expect(readInitialData(documentWith(block('{"page": "admin"}')))).toBeNull();
    expect(readInitialData(documentWith(block('{"page": "landing", "products": "nope"}')))).toBeNull();
    expect(readInitialData(documentWith(block('{"page": "product", "product": {"id": 1}}')))).toBeNull();
  });

  it('reads the landing page data', () => {
    const json = JSON.stringify({ page: 'landing', products: fixtureProducts });
    expect(readInitialData(documentWith(block(json)))).toEqual({ page: 'landing', products: fixtureProducts });
  });

  it('reads a product page, including the escaped characters the server writes', () => {
    const product = { ...fixtureProduct('hhtraff'), description: '<p>Tom & Jerry</p>' };
    const json = JSON.stringify({ page: 'product', product })
      .replace(/</g, '\\u003c')
      .replace(/>/g, '\\u003e')
      .replace(/&/g, '\\u0026');
    const data = readInitialData(documentWith(block(json)));
    expect(data).toEqual({ page: 'product', product });
  });

  it('reads a missing product and the generic app page', () => {
    expect(readInitialData(documentWith(block('{"page":"product","product":null}')))).toEqual({ page: 'product', product: null });
    expect(readInitialData(documentWith(block('{"page":"app"}')))).toEqual({ page: 'app' });
  });
});

describe('parseInitialData', () => {
  it('rejects non-objects', () => {
    expect(parseInitialData(null)).toBeNull();
    expect(parseInitialData('landing')).toBeNull();
  });
});
