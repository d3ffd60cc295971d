// Writes .gz (gzip level 9) and .br (brotli quality 11) siblings next to every compressible file
// in dist/, so the server can send them by Accept-Encoding (docs/architecture.md, "Static files").
// A sibling is written only when it is smaller than the original. Node's built-in zlib only.
import { readdir, readFile, stat, unlink, writeFile } from 'node:fs/promises';
import { extname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';

const gzipAsync = promisify(gzip);
const brotliAsync = promisify(brotliCompress);

const DIST = fileURLToPath(new URL('../dist/', import.meta.url));
const COMPRESSIBLE = new Set(['.html', '.js', '.mjs', '.css', '.svg', '.json', '.txt', '.xml', '.map', '.webmanifest']);
const MIN_BYTES = 256;

async function* walk(dir) {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* walk(path);
    else if (entry.isFile()) yield path;
  }
}

async function writeIfSmaller(path, data, originalSize) {
  if (data.length < originalSize) {
    await writeFile(path, data);
    return true;
  }
  // A stale sibling from an earlier build must not outlive a file it no longer matches.
  await unlink(path).catch(() => undefined);
  return false;
}

async function main() {
  await stat(DIST).catch(() => {
    throw new Error(`No build output at ${DIST}: run vite build first`);
  });
  let files = 0;
  let written = 0;
  let before = 0;
  let afterBr = 0;
  for await (const path of walk(DIST)) {
    if (!COMPRESSIBLE.has(extname(path).toLowerCase())) continue;
    const original = await readFile(path);
    if (original.length <= MIN_BYTES) continue;
    files += 1;
    const [gz, br] = await Promise.all([
      gzipAsync(original, { level: 9 }),
      brotliAsync(original, {
        params: {
          [constants.BROTLI_PARAM_QUALITY]: 11,
          [constants.BROTLI_PARAM_SIZE_HINT]: original.length,
          [constants.BROTLI_PARAM_MODE]:
            extname(path) === '.svg' || extname(path) === '.html' || extname(path) === '.css' || extname(path) === '.js'
              ? constants.BROTLI_MODE_TEXT
              : constants.BROTLI_MODE_GENERIC,
        },
      }),
    ]);
    if (await writeIfSmaller(`${path}.gz`, gz, original.length)) written += 1;
    if (await writeIfSmaller(`${path}.br`, br, original.length)) written += 1;
    before += original.length;
    afterBr += Math.min(br.length, original.length);
  }
  const saved = before > 0 ? Math.round((1 - afterBr / before) * 100) : 0;
  console.log(
    `compress: ${String(files)} files in ${relative(process.cwd(), DIST) || 'dist'}, ${String(written)} siblings written (brotli saves ${String(saved)}%)`,
  );
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
