// Issue 15: axe-core on every public page, with no serious or critical violation. The pages are
// checked as a visitor first sees them (the server's initial data, no API round trip), and the
// product page with its picture (the enlarge control once failed label-content-name-mismatch, an
// experimental axe rule that Lighthouse runs: it is switched on here).
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';

const PUBLIC_PAGES: { path: string; status: number; ready: (page: Page) => Promise<void> }[] = [
  { path: '/', status: 200, ready: (page) => expect(page.getByRole('heading', { level: 1 })).toHaveText('Your serial terminal, in your pocket') },
  {
    path: '/product/bluetooth-serial-adapter',
    status: 200,
    ready: (page) => expect(page.getByRole('button', { name: 'Enlarge Bluetooth Serial Adapter picture' })).toBeVisible(),
  },
  { path: '/terms', status: 200, ready: (page) => expect(page.getByRole('heading', { level: 1, name: 'Terms and Conditions' })).toBeVisible() },
  { path: '/privacy', status: 200, ready: (page) => expect(page.getByRole('heading', { level: 1, name: 'Privacy Policy' })).toBeVisible() },
  { path: '/no-such-page', status: 404, ready: (page) => expect(page.getByRole('heading', { level: 1 })).toBeVisible() },
];

for (const { path, status, ready } of PUBLIC_PAGES) {
  test(`axe: no serious or critical violation on ${path}`, async ({ page }) => {
    const response = await page.goto(path);
    expect(response?.status()).toBe(status);
    await ready(page);
    const results = await new AxeBuilder({ page })
      .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'])
      .options({ rules: { 'label-content-name-mismatch': { enabled: true } } })
      .analyze();
    const checked = [...results.passes, ...results.violations, ...results.incomplete, ...results.inapplicable].map((rule) => rule.id);
    expect(checked).toContain('label-content-name-mismatch');
    const serious = results.violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical');
    console.log(
      `axe ${path}: ${String(results.passes.length)} rules pass, ${String(results.violations.length)} violations` +
        (results.violations.length ? ` (${results.violations.map((v) => `${v.id}: ${v.impact ?? '?'}`).join(', ')})` : ''),
    );
    expect(
      serious.map((violation) => `${violation.id} (${violation.impact ?? ''}): ${violation.nodes.map((node) => node.target.join(' ')).join('; ')}`),
    ).toEqual([]);
  });
}
