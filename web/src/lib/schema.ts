// The one schema library (zod), configured once for the whole app. zod 4 compiles object parsers
// with `new Function` unless told not to, and probes for it on first use; under our CSP
// (`script-src 'self'`, no 'unsafe-eval') that probe is reported as a violation on every page.
// jitless keeps parsing within the CSP. Import `z` from here, never from 'zod' directly (lint).
// (Listed under "sideEffects" in package.json: the bundler must not skip this module for its re-export.)
import { z } from 'zod';

z.config({ jitless: true });

export { z };
export type { ZodType } from 'zod';

/**
 * The page every list endpoint answers (server http::pageJson): {items, total, page, page_size},
 * and total_capped when a search matched more than the server counts (total is then 10,000).
 * Extend it for a list's extra members (`.extend({ counts: ... })`).
 */
export function pageSchema<T extends z.ZodType>(item: T) {
  return z.object({
    items: z.array(item),
    total: z.number().int(),
    total_capped: z.boolean().optional(),
    page: z.number().int(),
    page_size: z.number().int(),
  });
}
