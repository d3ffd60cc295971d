// The spec server's SQLite database (global-setup.ts starts it in E2E_DATA_DIR): for arranging rows
// a journey does not test (an order, a failed mail) and for reading the mail outbox.
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

/** Runs `sql` (one or more statements) and answers the last statement's rows. */
export function sqlite(sql: string): Record<string, unknown>[] {
  const dataDir = process.env.E2E_DATA_DIR;
  if (!dataDir) throw new Error('E2E_DATA_DIR is not set: run the specs through global-setup.ts');
  const out = execFileSync('sqlite3', ['-json', join(dataDir, 'e2e.db'), sql], { encoding: 'utf8' });
  return out.trim() ? (JSON.parse(out) as Record<string, unknown>[]) : [];
}

/** `text` as an SQL string literal. */
export function quote(text: string): string {
  return `'${text.replace(/'/g, "''")}'`;
}
