// npm run lint:openapi: writes the OpenAPI document the service serves (built by buildApp on an
// in-memory database, no server listening) and lints it with Redocly's recommended rules. Any error
// or warning fails, since `redocly lint` alone exits 0 on warnings; the one problem let through is a
// path ambiguity that the parameters' types rule out (typedApart, below).
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
const document = app.swagger() as unknown as OpenApiDocument;
writeFileSync(file, `${JSON.stringify(document, null, 2)}\n`);
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
interface OpenApiDocument {
  paths: Record<string, Record<string, { parameters?: Array<{ in: string; name: string; schema?: { type?: string } }> }>>;
}
let report: { problems: Problem[] };
try {
  report = JSON.parse(redocly.stdout) as typeof report;
} catch {
  console.error(`redocly lint did not answer (exit ${redocly.status}):\n${redocly.stderr || redocly.error?.message || ''}`);
  process.exit(1);
}
const problems = report.problems.filter((problem) => !(problem.ruleId === 'no-ambiguous-paths' && typedApart(problem.message)));
for (const problem of problems) {
  console.error(`${problem.severity} ${problem.ruleId} at ${problem.location[0]?.pointer ?? '#'}: ${problem.message}`);
}
const errors = problems.filter((problem) => problem.severity === 'error').length;
const warnings = problems.length - errors;
console.log(`OpenAPI document ${file}: ${errors} errors, ${warnings} warnings (Redocly recommended rules)`);
process.exit(errors + warnings === 0 ? 0 : 1);

/**
 * no-ambiguous-paths reads path templates without their parameters' types: it takes
 * `/rides/{rideId}/complaints` for a rival of `/rides/status/{rideId}`, though `status` can never be
 * an integer ride id. Two paths are told apart when, at some segment, one has a word and the other an
 * integer parameter (or the words differ); any other ambiguity is still reported.
 */
function typedApart(message: string): boolean {
  const [first, second] = [...message.matchAll(/`([^`]+)`/g)].map((match) => match[1]);
  if (!first || !second) return false;
  const [a, b] = [first.split('/'), second.split('/')];
  if (a.length !== b.length) return false;
  const integerParameter = (path: string, segment: string) => {
    const name = /^\{(\w+)\}$/.exec(segment)?.[1];
    const operations = Object.values(document.paths[path] ?? {});
    return name !== undefined && operations.length > 0 &&
      operations.every((operation) => operation.parameters?.some((p) => p.in === 'path' && p.name === name && p.schema?.type === 'integer'));
  };
  const isWord = (segment: string) => !segment.startsWith('{') && !/^\d+$/.test(segment);
  return a.some((segment, i) =>
    (isWord(segment) && isWord(b[i]) && segment !== b[i]) ||
    (isWord(segment) && integerParameter(second, b[i])) ||
    (isWord(b[i]) && integerParameter(first, segment)),
  );
}
