// npm run lint:openapi: writes the OpenAPI document the service serves (built by buildApp on an
// in-memory database, no server listening) and lints it with Redocly's recommended rules. Any error
// or warning fails, since `redocly lint` alone exits 0 on warnings.
// `-- --out file.json` keeps the document (for client generators); otherwise it goes to a temp dir.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';

const { values } = parseArgs({ options: { out: { type: 'string' } } });
const file = values.out ? resolve(values.out) : join(mkdtempSync(join(tmpdir(), 'openapi-')), 'openapi.json');

// Only what the document depends on: the routes. No environment, so the result is the same everywhere.
const app = await buildApp(loadConfig({ DATABASE_URL: 'sqlite::memory:', LOG_LEVEL: 'silent' }));
await app.ready();
writeFileSync(file, `${JSON.stringify(app.swagger(), null, 2)}\n`);
await app.close();

const redocly = spawnSync('redocly', ['lint', '--extends=recommended', '--format=json', file], {
  encoding: 'utf8',
  env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
});
interface Problem {
  ruleId: string;
  severity: string;
  message: string;
  location: Array<{ pointer: string }>;
}
let report: { totals: { errors: number; warnings: number }; problems: Problem[] };
try {
  report = JSON.parse(redocly.stdout) as typeof report;
} catch {
  console.error(`redocly lint did not answer (exit ${redocly.status}):\n${redocly.stderr || redocly.error?.message || ''}`);
  process.exit(1);
}
for (const problem of report.problems) {
  console.error(`${problem.severity} ${problem.ruleId} at ${problem.location[0]?.pointer ?? '#'}: ${problem.message}`);
}
const { errors, warnings } = report.totals;
console.log(`OpenAPI document ${file}: ${errors} errors, ${warnings} warnings (Redocly recommended rules)`);
process.exit(errors + warnings === 0 ? 0 : 1);
