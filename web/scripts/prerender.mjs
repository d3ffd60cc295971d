// Writes the HTML a visitor's browser paints before any script runs (src/app/prerender.tsx):
//   * dist/index.html: the shell in #root, and the entry script fetched at low priority, since
//     nothing on the first paint waits for it any more (the stylesheet comes first);
//   * dist/pages/<path>.html: the same with a static page whole in #root (/terms, /privacy); the
//     server sends it as that page's template (server/src/seo/routes.cpp) and never as a file.
// Runs after `vite build` (npm run build), before compression. The pages are rendered in Node by
// Vite's SSR module loader from the same source files as the app.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createServer } from 'vite';

const WEB = fileURLToPath(new URL('..', import.meta.url));
const DIST = join(WEB, 'dist');
const ROOT = '<div id="root"></div>';
const ENTRY = /<script type="module" crossorigin src="(\/assets\/index-[\w-]+\.js)"><\/script>/;

function fill(template, markup) {
  if (!template.includes(ROOT)) throw new Error(`dist/index.html has no ${ROOT} to fill`);
  return template.replace(ROOT, `<div id="root">${markup}</div>`);
}

async function main() {
  const built = await readFile(join(DIST, 'index.html'), 'utf8');
  if (!ENTRY.test(built)) throw new Error('dist/index.html has no entry script to mark low priority');
  const template = built.replace(ENTRY, '<script type="module" fetchpriority="low" crossorigin src="$1"></script>');

  const vite = await createServer({
    root: WEB,
    logLevel: 'error',
    appType: 'custom',
    server: { middlewareMode: true, hmr: false, ws: false },
  });
  try {
    const { STATIC_PAGES, renderShell, renderStaticPage } = await vite.ssrLoadModule('/src/app/prerender.tsx');
    await writeFile(join(DIST, 'index.html'), fill(template, renderShell()));
    for (const path of Object.keys(STATIC_PAGES)) {
      const file = join(DIST, 'pages', `${path.slice(1)}.html`);
      await mkdir(dirname(file), { recursive: true });
      await writeFile(file, fill(template, renderStaticPage(path)));
    }
    console.log(`prerendered the shell and ${String(Object.keys(STATIC_PAGES).length)} static pages`);
  } finally {
    await vite.close();
  }
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
