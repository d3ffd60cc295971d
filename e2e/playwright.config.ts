// Playwright drives Debian's Chromium (no browser download) against the real server: globalSetup
// starts one built storefront binary per worker (spec-servers.ts), each on a free loopback port
// with a fresh data directory and the built web app; globalTeardown stops them.
import { defineConfig } from '@playwright/test';
import { WORKERS } from './spec-servers';

export const CHROMIUM_PATH = process.env.E2E_CHROMIUM ?? '/usr/bin/chromium';

export default defineConfig({
  testDir: './tests',
  outputDir: './test-results',
  globalSetup: './global-setup.ts',
  globalTeardown: './global-teardown.ts',
  // One server and database per worker (spec-servers.ts): spec files share out among the workers,
  // and a file's tests run one after another, in order, on its worker's server.
  workers: WORKERS,
  fullyParallel: false,
  forbidOnly: !!process.env.CI,
  retries: 0,
  timeout: 30_000,
  expect: { timeout: 5_000 },
  reporter: process.env.CI ? [['list']] : [['list'], ['html', { open: 'never', outputFolder: 'playwright-report' }]],
  use: {
    browserName: 'chromium',
    headless: true,
    locale: 'en-NZ',
    timezoneId: 'Pacific/Auckland',
    viewport: { width: 1280, height: 900 },
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: CHROMIUM_PATH,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
    },
  },
});
