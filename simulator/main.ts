// npm run simulate -- [options]   and   npm run demo -- [options]   (docs/simulator.md)

import { writeFileSync } from 'node:fs';
import type { AdminAccess } from './accounts.ts';
import { startEmbedded, type EmbeddedService } from './embedded.ts';
import { OptionsError, parseOptions, usage, type CliOptions, type Command } from './options.ts';
import { cashPayments, StandInPayments, type PaymentStep } from './payments.ts';
import { figuresJson, figuresTable, htmlReport, type NamedRun } from './report.ts';
import { simulate } from './simulation.ts';

const DEFAULT_URL = 'http://localhost:8080';
const log = (line: string) => void process.stderr.write(`${line}\n`);

const NO_ADMIN = `The simulator creates its drivers and riders with POST /admin/users, which needs an operator:
  npm run create-admin -- --email ops@example.com --password '…'     (once, with the service's environment)
  npm run simulate -- --admin-email ops@example.com --admin-password '…'
or give an operator's access token: --admin-token … (or SIMULATOR_ADMIN_TOKEN). See docs/simulator.md "Accounts".`;

async function main(): Promise<number> {
  const [command, ...argv] = process.argv.slice(2);
  if (command !== 'simulate' && command !== 'demo') {
    log('usage: node simulator/main.ts simulate|demo [options]');
    return 2;
  }
  let options: CliOptions;
  try {
    options = parseOptions(argv, command);
  } catch (error) {
    if (!(error instanceof OptionsError) && !(error instanceof TypeError)) throw error;
    log(`${error.message}\n\n${usage(command)}`);
    return 2;
  }
  if (options.help) {
    console.log(usage(command));
    return 0;
  }
  // The first Ctrl-C (or SIGTERM) ends the run cleanly: open rides cancelled, drivers offline,
  // figures printed. A second one exits at once.
  const stop = new AbortController();
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      if (stop.signal.aborted) process.exit(130);
      log('stopping: cancelling open rides and taking the simulated drivers offline (Ctrl-C again to quit at once)');
      stop.abort();
    });
  }
  const runs = await runsOf(command, options, stop.signal);
  if (runs.length === 0) return 1;
  // The terminal gets the table; the figures as JSON (over time included) go where --json says ('-': here).
  console.log(`\n${figuresTable(runs)}`);
  if (options.json === '-') console.log(`\n${figuresJson(runs)}`);
  else if (options.json) writeFileSync(options.json, `${figuresJson(runs)}\n`);
  if (options.report) {
    writeFileSync(options.report, htmlReport(runs));
    log(`report written to ${options.report}`);
  }
  return 0;
}

async function runsOf(command: Command, options: CliOptions, signal: AbortSignal): Promise<NamedRun[]> {
  if (command === 'demo') return [await onEmbedded(options, options.dispatch, signal, true)];
  if (options.compare) {
    const runs: NamedRun[] = [];
    for (const mode of options.compare) {
      if (signal.aborted) break;
      log(`\n== DISPATCH_MODE=${mode} ==`);
      runs.push(await onEmbedded(options, mode, signal, false));
    }
    return runs;
  }
  if (!options.admin) throw new UsageError(NO_ADMIN);
  const payments = options.providerUrl ? new StandInPayments(options.providerUrl) : cashPayments;
  return [await run('run', options, options.url ?? DEFAULT_URL, options.admin, payments, signal)];
}

async function onEmbedded(options: CliOptions, mode: CliOptions['dispatch'], signal: AbortSignal, announce: boolean): Promise<NamedRun> {
  log(`starting an embedded service (DISPATCH_MODE=${mode}) on a temporary database …`);
  const service: EmbeddedService = await startEmbedded({ dispatchMode: mode, speed: options.speed });
  try {
    if (announce) await announceDemo(service);
    const result = await run(mode, { ...options, cityPricing: true }, service.url, service.admin, new StandInPayments(service.providerUrl), signal);
    result.settings.url = `${service.url} (${service.description})`;
    return result;
  } finally {
    await service.stop();
  }
}

async function run(name: string, options: CliOptions, url: string, admin: AdminAccess, payments: PaymentStep, signal: AbortSignal): Promise<NamedRun> {
  const { settings, figures } = await simulate({ ...options, url, admin, payments, signal, log });
  return { name, settings, figures };
}

async function announceDemo(service: EmbeddedService): Promise<void> {
  // The operator console once the web apps are built; the API's interactive docs until then.
  const console_ = (await fetch(`${service.url}/app/ops`).then((r) => r.ok, () => false)) ? `${service.url}/app/ops` : `${service.url}/docs`;
  log(`
  A simulated city is starting on ${service.url}
  operator console   ${console_}
  operator login     ${service.admin.email} / ${service.admin.password}   (a temporary database: gone when the demo stops)
  service log        ${service.logFile}
  Ctrl-C stops the demo and prints the figures.
`);
}

class UsageError extends Error {}

try {
  process.exitCode = await main();
} catch (error) {
  log(error instanceof UsageError ? error.message : `simulator failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  process.exitCode = 1;
}
