/// <reference types="vitest/config" />
import { readdirSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';
import { fixtureProducts } from './src/dev/fixtures.ts';

// The Content-Security-Policy the C++ server sends on every response (docs/architecture.md).
// `vite preview` sends the same header so that a CSP violation in the built app shows up locally.
const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

const SECURITY_HEADERS = {
  'Content-Security-Policy': CONTENT_SECURITY_POLICY,
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'strict-origin-when-cross-origin',
};

// Where `npm run dev` sends /api and /auth requests; defaults to the server's `make run` address.
const apiTarget = process.env.STOREFRONT_API ?? 'http://127.0.0.1:8080';

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.statusCode = status;
  res.setHeader('Content-Type', 'application/json');
  res.end(JSON.stringify(body));
}

// `STOREFRONT_FIXTURES=1 npm run dev` (or `npm run preview`) answers the catalogue and contact
// endpoints from src/dev/fixtures.ts, for working on the web app without the C++ server.
function fixtureApi(): Plugin {
  return {
    name: 'storefront-fixture-api',
    configureServer(server) {
      server.middlewares.use('/api/v1', fixtureMiddleware);
    },
    configurePreviewServer(server) {
      server.middlewares.use('/api/v1', fixtureMiddleware);
    },
  };
}

function fixtureMiddleware(req: IncomingMessage, res: ServerResponse, next: () => void): void {
  const url = new URL(req.url ?? '/', 'http://localhost');
  if (req.method === 'GET' && url.pathname === '/products') {
    sendJson(res, 200, { products: fixtureProducts.map(({ plans: _plans, ...rest }) => rest) });
    return;
  }
  const match = /^\/products\/([^/]+)$/.exec(url.pathname);
  if (req.method === 'GET' && match) {
    const product = fixtureProducts.find((p) => p.slug === decodeURIComponent(match[1]));
    if (product) sendJson(res, 200, { product });
    else sendJson(res, 404, { code: 'product_not_found', message: 'Product not found' });
    return;
  }
  if (req.method === 'POST' && url.pathname === '/contact') {
    req.resume();
    req.on('end', () => sendJson(res, 201, { id: '00000000-0000-4000-8000-000000000000' }));
    return;
  }
  next();
}

// The test files that mock a module (vi.mock): a mock applies only to a module graph loaded after
// it, so each of these runs in a fresh one. Every other file shares its worker's graph with the files
// before it (isolate: false): jsdom and the app's modules are loaded once per worker, not once per
// file, which takes the suite from about 75 s to about 25 s on two cores (bench/README.md).
function filesThatMockModules(): string[] {
  const files = readdirSync(fileURLToPath(new URL('./src', import.meta.url)), { recursive: true, encoding: 'utf8' });
  return files
    .filter((file) => /\.test\.tsx?$/.test(file))
    .filter((file) => readFileSync(fileURLToPath(new URL(`./src/${file}`, import.meta.url)), 'utf8').includes('vi.mock('))
    .map((file) => `src/${file}`);
}

// Source maps are not built (so not served) unless STOREFRONT_WEB_SOURCEMAPS=true at build time
// (docs/configuration.md): visitors get no map of the app's source by default.
const sourcemap = process.env.STOREFRONT_WEB_SOURCEMAPS === 'true';

// Vite wraps every dynamic import in a preload helper that adds <link rel=modulepreload> for the
// chunk's imports and loads its CSS. With modulePreload off (below) only the CSS is left to do (the
// admin editor's Quill theme), yet Vite's helper would cost every page about 0.6 KB compressed: in
// the build it is replaced by this one, which loads a lazy chunk's stylesheets, then the chunk.
const PRELOAD_HELPER = `const seen = {};
export const __vitePreload = (load, deps) =>
  deps && deps.length
    ? Promise.all(deps.map((dep) => (seen[dep] ??= new Promise((resolve, reject) => {
        if (document.querySelector('link[href="/' + dep + '"]')) return resolve();
        const link = document.createElement('link');
        link.rel = 'stylesheet';
        link.href = '/' + dep;
        link.onload = resolve;
        link.onerror = () => reject(new Error('Unable to load ' + dep));
        document.head.appendChild(link);
      })))).then(load)
    : load();`;

function smallPreloadHelper(): Plugin {
  return {
    name: 'storefront:small-preload-helper',
    apply: 'build',
    enforce: 'pre',
    load(id) {
      return id === '\0vite/preload-helper.js' ? PRELOAD_HELPER : null;
    },
  };
}

// react-router's production build keeps every component made with `React.forwardRef(...)` (Link,
// NavLink, and Form with all of useSubmit behind it, unused here) because the bundler cannot know
// that call is pure, and sets a `displayName` on each component and context, which only developer
// tools read. In the build its forwardRef calls are marked pure and the displayName lines dropped:
// about 0.3 KB compressed off every page, which pays for the error boundary (docs/performance.md).
function trimRouter(): Plugin {
  return {
    name: 'storefront:trim-react-router',
    apply: 'build',
    transform(code, id) {
      if (!/\/react-router\/dist\/production\/[^/]+\.mjs$/.test(id)) return null;
      return code
        .replace(/^\s*[\w$]+\.displayName = "[^"]*";$/gm, '')
        .replace(/= (React\d*)\.forwardRef\(/g, '= /* @__PURE__ */ $1.forwardRef(');
    },
  };
}

export default defineConfig({
  plugins: [smallPreloadHelper(), trimRouter(), react(), tailwindcss(), ...(process.env.STOREFRONT_FIXTURES === '1' ? [fixtureApi()] : [])],
  resolve: {
    alias: [
      { find: '@', replacement: fileURLToPath(new URL('./src', import.meta.url)) },
      // react-router's package exports point every condition at its development build (dev-only
      // warnings and checks, about 1.5 KB compressed); the production build sits beside it.
      ...(process.env.NODE_ENV === 'production' || process.argv.includes('build')
        ? [{ find: /^react-router$/, replacement: fileURLToPath(new URL('./node_modules/react-router/dist/production/index.mjs', import.meta.url)) }]
        : []),
    ],
  },
  build: {
    sourcemap,
    // Keep the module-preload polyfill out of the HTML: nothing inline may run under the CSP.
    // No preload helper: the first page is one chunk (below), and lazy chunks load their own
    // imports when they run (a second round trip on first use of an admin page), instead of every
    // page carrying the helper and every lazy chunk's dependency list (docs/performance.md).
    // (false also keeps the module-preload polyfill out of the HTML: nothing inline may run under the CSP.)
    modulePreload: false,
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            // React and the router change far less often than the app: their own long-cached chunk.
            // Everything else the entry imports statically, in one chunk: without this, modules it
            // shares with lazy pages (api, query options, ...) become a handful of tiny chunks,
            // each a request of its own on every first load (docs/performance.md).
            { name: 'app', tags: ['$initial'], priority: 1 },
          ],
        },
      },
    },
  },
  server: {
    proxy: {
      '/api': apiTarget,
      '/auth': apiTarget,
      '/functions': apiTarget,
    },
  },
  preview: {
    headers: SECURITY_HEADERS,
    proxy: {
      '/api': apiTarget,
      '/auth': apiTarget,
      '/functions': apiTarget,
    },
  },
  test: {
    // Vitest runs one file less than there are cores at once (one on the 2-core CI machine, which
    // leaves a core idle while a file sets up jsdom): one per core instead.
    maxWorkers: availableParallelism(),
    // Two files at once on two cores: a long journey (the dashboard's payment polling, rendering
    // it four times) can take over vitest's default 5 s; a test that hangs still fails.
    testTimeout: 15_000,
    environment: 'jsdom',
    globals: true,
    setupFiles: ['./src/test/setup.ts'],
    css: false,
    restoreMocks: true,
    unstubGlobals: true,
    projects: [
      { extends: true, test: { name: 'isolated', include: filesThatMockModules(), isolate: true } },
      { extends: true, test: { name: 'shared', include: ['src/**/*.test.{ts,tsx}'], exclude: filesThatMockModules(), isolate: false } },
    ],
  },
});
