// The one axe check of the journeys' pages: WCAG 2.2 AA and axe's best practices, no serious or
// critical finding on the page as it is now (dialogs open included). The public pages' sweep
// (accessibility.spec.ts) and the staff screens' (staff-accessibility.spec.ts) use the same tags.
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect } from './fixtures';

export const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'];

export async function expectNoSeriousAxeFindings(page: Page, what: string): Promise<void> {
  const results = await new AxeBuilder({ page })
    .withTags(AXE_TAGS)
    .options({ rules: { 'label-content-name-mismatch': { enabled: true } } })
    .analyze();
  console.log(`axe ${what}: ${String(results.passes.length)} rules pass, ${String(results.violations.length)} violations`);
  const serious = results.violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical');
  expect(serious.map((v) => `${what}: ${v.id} (${v.impact ?? ''}): ${v.nodes.map((node) => node.target.join(' ')).join('; ')}`)).toEqual([]);
}
