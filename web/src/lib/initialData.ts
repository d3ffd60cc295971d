// The server embeds the first page's data in
// <script id="initial-data" type="application/json"> (docs/architecture.md, "Server-rendered shell").
// It is read once at start-up; absent or malformed data simply means "fetch normally".
import type { Product } from './types';

export type InitialData =
  | { page: 'landing'; products: Product[] }
  | { page: 'product'; product: Product | null }
  | { page: 'app' };

export const INITIAL_DATA_ELEMENT_ID = 'initial-data';

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function looksLikeProduct(value: unknown): value is Product {
  return isRecord(value) && typeof value.slug === 'string' && typeof value.name === 'string';
}

/** Validates a parsed initial-data object; returns null when it is not one of the known shapes. */
export function parseInitialData(value: unknown): InitialData | null {
  if (!isRecord(value)) return null;
  switch (value.page) {
    case 'landing':
      return Array.isArray(value.products) && value.products.every(looksLikeProduct)
        ? { page: 'landing', products: value.products }
        : null;
    case 'product':
      if (value.product === null) return { page: 'product', product: null };
      return looksLikeProduct(value.product) ? { page: 'product', product: value.product } : null;
    case 'app':
      return { page: 'app' };
    default:
      return null;
  }
}

/** Reads and parses the initial-data block of `doc`; null when it is absent or unusable. */
export function readInitialData(doc: Document = document): InitialData | null {
  const element = doc.getElementById(INITIAL_DATA_ELEMENT_ID);
  const text = element?.textContent;
  if (!text) return null;
  try {
    return parseInitialData(JSON.parse(text));
  } catch {
    return null;
  }
}
