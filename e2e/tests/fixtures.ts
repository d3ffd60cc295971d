// The `test` every spec uses: its pages talk to this worker's server (spec-servers.ts), and it fails
// a test whose page hit the Content-Security-Policy, seen either as a `securitypolicyviolation`
// event or as Chromium's console report of one.
import { test as base, expect } from '@playwright/test';
import { currentServer } from '../spec-servers';

interface CspGuard {
  violations: string[];
}

export const test = base.extend<{ cspGuard: CspGuard }>({
  // The server of this worker (spec-servers.ts): pages, browser.newContext() and request all use it.
  baseURL: async ({}, use) => {
    await use(currentServer().baseURL);
  },
  cspGuard: [
    async ({ page }, use) => {
      const guard: CspGuard = { violations: [] };
      await page.exposeFunction('__reportCspViolation', (text: string) => {
        guard.violations.push(text);
      });
      await page.addInitScript(() => {
        document.addEventListener('securitypolicyviolation', (event) => {
          const report = (window as unknown as { __reportCspViolation: (text: string) => void }).__reportCspViolation;
          void report(`${event.violatedDirective} blocked ${event.blockedURI || 'inline'} (${event.sourceFile}:${String(event.lineNumber)})`);
        });
      });
      page.on('console', (message) => {
        const text = message.text();
        if (message.type() === 'error' && /Content Security Policy|Refused to (load|execute|apply|connect|frame)/i.test(text)) {
          guard.violations.push(text);
        }
      });
      await use(guard);
      expect(guard.violations, 'Content-Security-Policy violations').toEqual([]);
    },
    { auto: true },
  ],
});

export { expect };
