// Issue 15: what a visitor's browser pays on the public pages. The JavaScript budget (compressed
// bytes of every script the page loads until the network is idle) on the landing page, a product
// page and the legal pages (issue 34: the first chunk alone, their HTML is the build's), no API round trip for what the server embeds, no layout
// shift from the product picture, and no source maps served by default. The figures are printed on every run.
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';

/** Brotli-compressed JavaScript allowed before the first interaction (issue 15). */
const JS_BUDGET_BYTES = 85 * 1024;

interface ScriptLoad {
  url: string;
  encoding: string;
  bodyBytes: number;
}

/**
 * Loads `path` and waits for the network to go idle, then answers every script response with its
 * Content-Encoding and its body size as it crossed the wire (encoded, headers not counted).
 */
async function scriptsLoadedBy(page: Page, path: string): Promise<ScriptLoad[]> {
  const pending: Promise<ScriptLoad>[] = [];
  page.on('requestfinished', (request) => {
    if (request.resourceType() !== 'script') return;
    pending.push(
      (async () => {
        const [sizes, response] = await Promise.all([request.sizes(), request.response()]);
        const encoding = (await response?.headerValue('content-encoding')) ?? 'identity';
        return { url: new URL(request.url()).pathname, encoding, bodyBytes: sizes.responseBodySize };
      })(),
    );
  });
  const response = await page.goto(path, { waitUntil: 'networkidle' });
  expect(response?.status()).toBe(200);
  return Promise.all(pending);
}

function kb(bytes: number): string {
  return `${(bytes / 1024).toFixed(1)} KB`;
}

// Every public page a visitor arrives on: the landing page, a product page and the legal pages.
for (const [path, budget] of [
  ['/', JS_BUDGET_BYTES],
  ['/product/bluetooth-serial-adapter', JS_BUDGET_BYTES],
  ['/terms', JS_BUDGET_BYTES],
  ['/privacy', JS_BUDGET_BYTES],
] as const) {
  test(`JavaScript budget on ${path}: at most ${kb(budget)} of brotli before the first interaction`, async ({ page }) => {
    // Chromium advertises brotli on secure origins only; ask for it as a browser on https would.
    await page.setExtraHTTPHeaders({ 'Accept-Encoding': 'br, gzip' });
    const scripts = await scriptsLoadedBy(page, path);
    const total = scripts.reduce((sum, script) => sum + script.bodyBytes, 0);
    console.log(
      `JS budget ${path}: ${kb(total)} of ${kb(budget)} in ${String(scripts.length)} scripts\n` +
        scripts.map((s) => `  ${kb(s.bodyBytes).padStart(9)} ${s.encoding.padEnd(8)} ${s.url}`).join('\n'),
    );
    expect(scripts.length).toBeGreaterThan(0);
    // The build writes no .br for a file under 256 bytes; everything larger must come compressed.
    for (const script of scripts) if (script.bodyBytes > 1024) expect(script.encoding, script.url).toBe('br');
    expect(total, `compressed JavaScript on ${path}`).toBeLessThanOrEqual(budget);
  });
}

test('every page paints from its HTML: the header before any script, the script at low priority', async ({ page, request }) => {
  for (const path of ['/', '/product/bluetooth-serial-adapter', '/dashboard', '/terms']) {
    const html = await (await request.get(path)).text();
    // The build's shell (app/prerender.tsx) sits in #root, and nothing on the first paint waits for the script.
    expect(html, path).toMatch(/<div id="root"><div class="flex min-h-screen flex-col">.*<header /s);
    expect(html, path).toMatch(/<script type="module" fetchpriority="low" crossorigin src="\/assets\/index-[\w-]+\.js">/);
  }
  // With scripts off, the page shows that header (and a static page its whole text).
  await page.context().route('**/assets/*.js', (route) => route.abort());
  await page.goto('/terms');
  await expect(page.getByRole('banner')).toContainText('Signalcraft');
  await expect(page.getByRole('heading', { level: 1, name: 'Terms and Conditions' })).toBeVisible();
});

test('the first load of / and a product page asks the API nothing the server embedded', async ({ page }) => {
  const apiRequests: string[] = [];
  page.on('request', (request) => {
    if (new URL(request.url()).pathname.startsWith('/api/')) apiRequests.push(request.url());
  });
  await page.goto('/', { waitUntil: 'networkidle' });
  await expect(page.getByRole('article')).toHaveCount(5);
  await page.goto('/product/hhtraff', { waitUntil: 'networkidle' });
  // The plans too: they are part of the embedded product.
  await expect(page.getByRole('region', { name: 'Pricing' })).toContainText('$15.00 per month');
  await page.goto('/product/bluetooth-serial-adapter', { waitUntil: 'networkidle' });
  await expect(page.getByRole('region', { name: 'Stock Status' })).toBeVisible();
  console.log(`API requests on first loads: ${String(apiRequests.length)}`);
  expect(apiRequests).toEqual([]);
});

test("a product page's largest image has width and height, and nothing shifts while it loads", async ({ page }) => {
  await page.addInitScript(() => {
    const shifts: number[] = [];
    (window as unknown as { __shifts: number[] }).__shifts = shifts;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as (PerformanceEntry & { value: number; hadRecentInput: boolean })[]) {
        if (!entry.hadRecentInput) shifts.push(entry.value);
      }
    }).observe({ type: 'layout-shift', buffered: true });
  });
  await page.goto('/product/bluetooth-serial-adapter', { waitUntil: 'networkidle' });
  const picture = page.getByRole('img', { name: 'Bluetooth Serial Adapter picture' });
  await expect(picture).toHaveAttribute('width', /^\d+$/);
  await expect(picture).toHaveAttribute('height', /^\d+$/);
  // The largest image of the page is the picture.
  const largest = await page.evaluate(() =>
    Array.from(document.images)
      .map((image) => ({ alt: image.alt, area: image.getBoundingClientRect().width * image.getBoundingClientRect().height }))
      .sort((a, b) => b.area - a.area)[0]?.alt,
  );
  expect(largest).toBe('Bluetooth Serial Adapter picture');
  const cls = await page.evaluate(() => (window as unknown as { __shifts: number[] }).__shifts.reduce((sum, value) => sum + value, 0));
  console.log(`cumulative layout shift on the product page: ${cls.toFixed(3)}`);
  expect(cls).toBeLessThan(0.01);
});

test('source maps are not served: no sourceMappingURL in the scripts and no .map file', async ({ page, request }) => {
  const scripts: string[] = [];
  page.on('response', (response) => {
    if (response.request().resourceType() === 'script') scripts.push(response.url());
  });
  await page.goto('/', { waitUntil: 'networkidle' });
  expect(scripts.length).toBeGreaterThan(0);
  for (const url of scripts) {
    const body = await (await request.get(url)).text();
    expect(body, url).not.toContain('sourceMappingURL');
    expect((await request.get(`${url}.map`)).status(), `${url}.map`).toBe(404);
  }
});
