// Whether this deployment takes Stripe test-mode payments (STOREFRONT_ALLOW_TEST_PAYMENTS,
// docs/configuration.md): the server then puts "test_payments": true in every page's initial data
// (<script id="initial-data">), and the app shows its TEST PAYMENTS ribbon on every page.
import { INITIAL_DATA_ELEMENT_ID } from './initialData';

/** True when the page's initial data says this deployment takes test payments. */
export function readTestPayments(doc: Document = document): boolean {
  const text = doc.getElementById(INITIAL_DATA_ELEMENT_ID)?.textContent;
  if (!text) return false;
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && (value as Record<string, unknown>).test_payments === true;
  } catch {
    return false;
  }
}
