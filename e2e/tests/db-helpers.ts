// The SQLite database of this worker's spec server (spec-servers.ts): for arranging rows
// a journey does not test (an order, a failed mail) and for reading the mail outbox.
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { currentServer } from '../spec-servers';

/** Runs `sql` (one or more statements) and answers the last statement's rows. */
export function sqlite(sql: string): Record<string, unknown>[] {
  const { dataDir } = currentServer();
  const out = execFileSync('sqlite3', ['-json', join(dataDir, 'e2e.db'), sql], { encoding: 'utf8' });
  return out.trim() ? (JSON.parse(out) as Record<string, unknown>[]) : [];
}

/** `text` as an SQL string literal. */
export function quote(text: string): string {
  return `'${text.replace(/'/g, "''")}'`;
}
