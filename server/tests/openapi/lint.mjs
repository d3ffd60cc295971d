// Lints docs/openapi.yaml with Redocly CLI's recommended ruleset (redocly.yaml) and fails on any
// problem, warnings included: `redocly lint` itself exits 0 on warnings.
import { spawnSync } from 'node:child_process';
import { join, resolve } from 'node:path';

const here = import.meta.dirname;
const document = resolve(here, '../../../docs/openapi.yaml');
const redocly = join(here, 'node_modules/.bin/redocly');
const run = spawnSync(redocly, ['lint', '--config', join(here, 'redocly.yaml'), '--format=json', document], {
  encoding: 'utf8',
  // No telemetry or update check: CI reaches no network but the package registries.
  env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
});
let report = null;
try {
  report = JSON.parse(run.stdout);
} catch {
  // reported below
}
if (!report?.totals) {
  console.error(run.error?.message ?? '', run.stdout ?? '', run.stderr ?? '');
  console.error(`openapi lint: redocly did not report (exit ${run.status})`);
  process.exit(1);
}
const { errors, warnings } = report.totals;
for (const p of report.problems) {
  const where = p.location?.[0]?.pointer ?? '';
  console.error(`${p.severity} ${p.ruleId} ${where}: ${p.message}`);
}
console.log(`openapi lint (Redocly recommended): ${errors} errors, ${warnings} warnings`);
process.exit(errors + warnings === 0 && run.status === 0 ? 0 : 1);
