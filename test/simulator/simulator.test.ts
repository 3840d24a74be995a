import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { systemClock } from '../../src/platform/clock.ts';
import type { Config } from '../../src/config.ts';
import type { Figures } from '../../simulator/figures.ts';
import { CHARTS, FIGURE_ROWS } from '../../simulator/report.ts';
import { call, createTestApp, type TestApp } from '../helpers/app.ts';
import { uniqueEmail } from '../helpers/factories.ts';

/** Runs `node <args>` from the project folder; resolves with its exit code and output. */
async function node(args: string[], env: Record<string, string | undefined>): Promise<{ code: number | null; output: string }> {
  const child = spawn(process.execPath, args, { env: { PATH: process.env.PATH, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const [code] = (await once(child, 'exit')) as [number | null];
  return { code, output };
}

/** The environment the service runs with, as create-admin needs it: the same database and secret. */
function serviceEnv(config: Config): Record<string, string> {
  const { database } = config;
  return { DATABASE_URL: database.kind === 'sqlite' ? `sqlite:${database.file}` : database.url, JWT_SECRET: config.jwtSecret };
}

async function createAdmin(t: TestApp, email: string, password: string) {
  return node(['scripts/create-admin.ts', '--email', email, '--password', password, '--name', 'First operator'], serviceEnv(t.config));
}

// A small, fast city, so a few simulated minutes hold whole trips: 3 km across, cars at 60 km/h,
// and one ride type, so that every driver can take every ride.
const TESTPUR = {
  name: 'Testpur',
  box: { south: 12.95, west: 77.58, north: 12.98, east: 77.61 },
  speedKmh: 60,
  roadFactor: 1.3,
  plate: 'KA',
  rideMix: { bike: 0, auto: 0, mini: 1, sedan: 0, suv: 0 },
  centres: [
    { name: 'Station', lat: 12.955, lon: 77.585, homes: 6, jobs: 2, spreadKm: 0.4 },
    { name: 'Market', lat: 12.965, lon: 77.595, homes: 3, jobs: 5, spreadKm: 0.4 },
    { name: 'Tech Park', lat: 12.975, lon: 77.605, homes: 1, jobs: 8, spreadKm: 0.4 },
  ],
};

describe('city simulator', () => {
  let t: TestApp;
  let url: string;
  let folder: string;
  // The first operator account of the install, made once by the command (each run takes a second or two).
  const operator = { email: uniqueEmail('operator'), password: 'a long admin password' };
  let made: Awaited<ReturnType<typeof node>>;

  before(async () => {
    // A real server on the real clock: the simulator's drivers hear offers over the realtime
    // channel, and dispatch rounds and offer expiry run in wall-clock time, fast.
    // Rides booked ahead: no minimum lead, and looked for a driver two minutes before (four simulated
    // hours at 120×), so the run's one booked ahead is dispatched while the run lasts.
    t = await createTestApp(
      { dispatch: { mode: 'batched', batchMs: 100, offerTtlMs: 1_000, maxMs: 4_000 }, schedule: { minLeadMs: 0, maxAheadMs: 86_400_000, dispatchLeadMs: 120_000 } },
      { clock: systemClock },
    );
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    url = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    folder = mkdtempSync(join(tmpdir(), 'simulator-test-'));
    made = await createAdmin(t, operator.email, operator.password);
  });

  after(async () => {
    await t.close();
    rmSync(folder, { recursive: true, force: true });
  });

  test('create-admin makes a working ADMIN account in the configured database, audited as the system', async () => {
    const { email, password } = operator;
    assert.equal(made.code, 0, made.output);
    assert.doesNotMatch(made.output, new RegExp(password), 'the password is never printed');

    const login = await call(t.app, 'POST', '/auth/login', { body: { email, password } });
    assert.equal(login.status, 200, JSON.stringify(login.body));
    assert.equal(login.body.role, 'ADMIN');
    const audit = await call(t.app, 'GET', `/admin/audit?action=user.create&targetType=user&targetId=${login.body.id}`, { token: login.body.accessToken });
    assert.equal(audit.status, 200, JSON.stringify(audit.body));
    assert.equal(audit.body.items.length, 1);
    assert.equal(audit.body.items[0].actorId, 0, 'the actor is the system, not an account');
    assert.match(audit.body.items[0].requestId, /^create-admin-/);
    assert.equal(audit.body.items[0].after.email, email);

    const [again, short] = await Promise.all([createAdmin(t, email, 'another long password'), createAdmin(t, uniqueEmail('operator'), 'short')]);
    assert.equal(again.code, 1);
    assert.match(again.output, /EMAIL_TAKEN/);
    assert.equal(short.code, 2);
    assert.match(short.output, /password/);
  });

  test('a short seeded run completes rides end to end through the realtime channel, and its figures add up', async () => {
    assert.equal(made.code, 0, made.output);
    const cityFile = join(folder, 'testpur.json');
    writeFileSync(cityFile, JSON.stringify(TESTPUR));
    const [jsonFile, reportFile] = [join(folder, 'figures.json'), join(folder, 'report.html')];

    const run = await node(
      [
        'simulator/main.ts', 'simulate', '--url', url, '--admin-email', operator.email, '--city', cityFile,
        '--drivers', '4', '--riders', '6', '--minutes', '5', '--speed', '120', '--load', '3', '--seed', '19', '--drain', '30',
        '--json', jsonFile, '--report', reportFile,
      ],
      { SIMULATOR_ADMIN_PASSWORD: operator.password },
    );
    assert.equal(run.code, 0, run.output);
    const { figures } = JSON.parse(readFileSync(jsonFile, 'utf8')) as { figures: Figures };

    // Rides were matched by offers, which simulated drivers hear only over the realtime channel, and completed.
    assert.ok(figures.requests >= 3, `requests: ${figures.requests}`);
    assert.ok(figures.offers.accepted > 0 && figures.completed > 0, JSON.stringify(figures));
    assert.equal(figures.requests, figures.matched + figures.cancelledBeforeMatch + figures.unmatched.total + figures.waitingAtEnd, 'every request is matched, cancelled or unmatched');
    const { byRider, byDriver, byAdmin } = figures.cancelledAfterMatch;
    assert.equal(figures.matched, figures.completed + byRider + byDriver + byAdmin + figures.inProgressAtEnd, 'every match completes or is cancelled');
    assert.equal(figures.inProgressAtEnd + figures.waitingAtEnd, 0, 'the drain let every ride end');
    assert.equal(figures.payments.cash + figures.payments.online + figures.payments.failed, figures.completed, 'every completed ride was settled');
    assert.ok(figures.pickupMinutes !== null && figures.pickupMinutes.mean > 0);
    assert.ok(figures.driverUtilisation > 0 && figures.driverUtilisation < 1);
    assert.ok(figures.series.some((point) => point.requests > 0 && point.onlineDrivers > 0));

    // The service agrees: the run's rides (the only ones in this database) ended as the figures say.
    const admin = await call(t.app, 'POST', '/auth/login', { body: operator });
    const statuses: string[] = [];
    let scheduled = 0;
    const charged = { waiting: 0, tollsAndParking: 0, night: 0 };
    for (let id = 1; ; id++) {
      const ride = await call(t.app, 'GET', `/rides/status/${id}`, { token: admin.body.accessToken });
      if (ride.status === 404) break;
      statuses.push(ride.body.status);
      if (ride.body.scheduledAt) scheduled++;
      const breakdown = ride.body.status === 'COMPLETED' ? ride.body.fareBreakdown : null;
      if (!breakdown) continue;
      charged.waiting += breakdown.waitingFare;
      charged.tollsAndParking += breakdown.tollsFare + breakdown.parkingFare;
      charged.night += breakdown.night ? 1 : 0;
    }
    // What the report says the trips were charged is what the service charged them.
    const { tripCharges } = figures;
    assert.deepEqual([tripCharges.waiting.inr, tripCharges.tollsAndParking.inr, tripCharges.nightRides], [Math.round(charged.waiting), charged.tollsAndParking, charged.night]);
    assert.equal(statuses.length, figures.requests);
    // Seed 19 plans one booking 55 simulated minutes ahead: booked with its time, counted apart.
    assert.equal(figures.bookedAhead.booked, 1);
    assert.equal(scheduled, 1, 'the service holds one ride booked ahead');
    assert.equal(statuses.filter((s) => s === 'COMPLETED').length, figures.completed);
    assert.equal(statuses.filter((s) => s === 'CANCELLED').length, figures.requests - figures.completed);

    // The page names every figure and draws every chart, with nothing fetched from elsewhere.
    const page = readFileSync(reportFile, 'utf8');
    const escaped = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;');
    for (const { label } of FIGURE_ROWS) assert.ok(page.includes(escaped(label)), `the report names "${label}"`);
    for (const { title } of CHARTS) assert.ok(page.includes(escaped(title)), `the report charts "${title}"`);
    assert.doesNotMatch(page, /<script[^>]+src=|<link[^>]+href=|https?:\/\/(?!127\.0\.0\.1)/, 'no resource outside the page');
    // The terminal got the table, and no JSON after it (that went to --json's file).
    for (const { label } of FIGURE_ROWS) assert.ok(run.output.includes(label), `the table names "${label}"`);
    assert.doesNotMatch(run.output, /^\s*[{}]|"figures"|"settings"/m, 'no JSON on the terminal');
  });

  test("--city-pricing prices the simulated night as night: the service's night window follows it on the wall clock", async () => {
    assert.equal(made.code, 0, made.output);
    const cityFile = join(folder, 'testpur-night.json');
    writeFileSync(cityFile, JSON.stringify(TESTPUR));
    const jsonFile = join(folder, 'night.json');
    const admin = await call(t.app, 'POST', '/auth/login', { body: operator });
    const token = admin.body.accessToken as string;
    let firstId = 1;
    while ((await call(t.app, 'GET', `/rides/status/${firstId}`, { token })).status !== 404) firstId++;

    // Midnight at 60×: the simulated night began an hour (a wall-clock minute) before the run and ends
    // five hours (five minutes) into it, so every ride of the run drops in it, whatever the wall clock says.
    const run = await node(
      [
        'simulator/main.ts', 'simulate', '--url', url, '--admin-email', operator.email, '--city', cityFile, '--city-pricing',
        '--drivers', '4', '--riders', '8', '--minutes', '20', '--speed', '60', '--start', '00:00', '--load', '10', '--seed', '5', '--drain', '30',
        '--json', jsonFile,
      ],
      { SIMULATOR_ADMIN_PASSWORD: operator.password },
    );
    assert.equal(run.code, 0, run.output);
    const { figures } = JSON.parse(readFileSync(jsonFile, 'utf8')) as { figures: Figures };
    assert.ok(figures.completed > 0, JSON.stringify(figures));
    assert.equal(figures.tripCharges.nightRides, figures.completed, 'every completed ride dropped in the simulated night');
    assert.equal(figures.tripCharges.refusedByCap, 0, 'tolls and parking pass through');

    // The service charged them so: the night multiplier of the city's version, in the window it moved.
    const pricing = await call(t.app, 'GET', '/admin/pricing', { token });
    const { night } = pricing.body.current.fares.mini;
    assert.equal(night.multiplier, 1.25);
    assert.notDeepEqual([night.start, night.end], ['23:00', '05:00'], 'the window moved onto the wall clock');
    assert.equal(pricing.body.current.tollsAndParking.capPerRide, 500);
    let nightRides = 0;
    for (let id = firstId; ; id++) {
      const ride = await call(t.app, 'GET', `/rides/status/${id}`, { token });
      if (ride.status === 404) break;
      if (ride.body.status !== 'COMPLETED') continue;
      assert.equal(ride.body.fareBreakdown.nightMultiplier, 1.25, `ride ${id}`);
      nightRides++;
    }
    assert.equal(nightRides, figures.completed);
  });
});
