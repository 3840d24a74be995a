import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../../src/app.ts';
import { connectDatabase } from '../../../src/db/connect.ts';
import { MAX_ID } from '../../../src/db/database.ts';
import { POSITION_TTL_MS } from '../../../src/platform/geo/driver-index.ts';
import { MemoryDriverIndex } from '../../../src/platform/geo/memory-driver-index.ts';
import { packOnline, packSample, SUPPLY_SAMPLE_MS, unpackSample } from '../../../src/modules/replay/supply-samples.ts';
import { routes } from '../../../src/contract/routes.ts';
import { apiOf } from '../../helpers/api.ts';
import { createTestApp, type TestApp } from '../../helpers/app.ts';
import { driverAt } from '../../helpers/dispatch.ts';
import { signUp, uniqueEmail, type TestUser } from '../../helpers/factories.ts';
import { accept, bookRide } from '../../helpers/rides.ts';

// decisions.md "What-if replay": every online driver's position and state about every 30 s, kept
// REPLAY_RETENTION_DAYS, taken once per slot however many instances run.

const DAY_MS = 86_400_000;
const SAMPLE_EVERY_MS = 20;
const slotOf = (ms: number) => ms - (ms % SUPPLY_SAMPLE_MS);
const iso = (ms: number) => new Date(ms).toISOString();

describe('packing a sample', () => {
  test('keeps ids, the busy flag and positions to about a metre, whatever the order and size of the ids', () => {
    const drivers = [
      { driverId: 2_147_483_647, lat: -33.868_82, lon: 151.209_29, busy: true },
      { driverId: 7, lat: 12.971_64, lon: 77.594_63, busy: false },
      { driverId: 1, lat: 0, lon: -0.000_01, busy: true },
      { driverId: 8, lat: 28.613_9, lon: 77.209_0, busy: false },
    ];
    const unpacked = unpackSample(packSample(drivers));
    assert.deepEqual(unpacked.map((d) => d.driverId), [1, 7, 8, 2_147_483_647]);
    for (const driver of drivers) {
      const found = unpacked.find((d) => d.driverId === driver.driverId)!;
      assert.equal(found.busy, driver.busy);
      assert.ok(Math.abs(found.lat - driver.lat) < 1e-5 && Math.abs(found.lon - driver.lon) < 1e-5, `${driver.driverId} at ${found.lat},${found.lon}`);
    }
    assert.deepEqual(unpackSample(packSample([])), []);
  });

  test('2,000 drivers pack into a few bytes each', () => {
    const drivers = Array.from({ length: 2000 }, (_, i) => ({ driverId: 1000 + i * 3, lat: 12.9 + (i % 97) * 0.001, lon: 77.5 + (i % 89) * 0.001, busy: i % 3 === 0 }));
    const packed = packSample(drivers);
    assert.ok(packed.length < 2000 * 16, `${packed.length} characters`);
    assert.equal(unpackSample(packed).length, 2000);
  });

  test("packing the index's columns of online positions with the busy ids gives the very text of packing the sampled drivers", async () => {
    const now = 1_795_000_000_000;
    const online = Array.from({ length: 500 }, (_, i) => ({ driverId: 1 + ((i * 7919) % 500) * 4, lat: 12.9 + (i % 97) * 0.0013, lon: 77.5 + (i % 89) * 0.0011, updatedAt: now - i }));
    const stale = { driverId: 5, lat: 13, lon: 77, updatedAt: now - POSITION_TTL_MS };
    const index = new MemoryDriverIndex(() => now);
    for (const position of [...online, stale]) index.upsertNow(position);
    const busy = new Set(online.filter((_, i) => i % 5 === 0).map((driver) => driver.driverId));
    const sampled = online.map(({ driverId, lat, lon }) => ({ driverId, lat, lon, busy: busy.has(driverId) }));
    const columns = await index.freshColumns(now);
    await index.close();
    assert.equal(columns.driverIds.length, 500, 'the stale position is left out');
    assert.equal(await packOnline(columns, busy), packSample(sampled));
  });

  test('drivers come out by id whatever the order they went in, up to the largest id', () => {
    const ids = [MAX_ID, 1, MAX_ID - 1, 2 ** 31 - 4_194_304, 77, 2 ** 30 + 1];
    const drivers = ids.map((driverId, i) => ({ driverId, lat: 10 + i, lon: 70 - i, busy: i % 2 === 0 }));
    const unpacked = unpackSample(packSample(drivers));
    assert.deepEqual(unpacked.map((driver) => driver.driverId), [...ids].sort((a, b) => a - b));
    for (const driver of drivers) assert.deepEqual(unpacked.find((found) => found.driverId === driver.driverId), driver);
  });
});

describe('supply samples', () => {
  let t: TestApp;
  let admin: TestUser;
  before(async () => {
    const email = uniqueEmail('admin');
    t = await createTestApp({ adminEmails: new Set([email]) }, { supplySampleIntervalMs: SAMPLE_EVERY_MS });
    admin = await signUp(t, { role: 'ADMIN', email });
  });
  after(() => t.close());

  const supply = (from: number, to: number) => apiOf(t, admin).call(routes.admin.supply, { query: { from: iso(from), to: iso(to) } });
  /** The slot's sample once an instance has taken it (they try every SAMPLE_EVERY_MS). */
  const sampleOf = async (slot: number) => {
    for (const deadline = Date.now() + 10_000; Date.now() < deadline; ) {
      const { samples } = await supply(slot, slot + SUPPLY_SAMPLE_MS);
      if (samples.length > 0) return samples;
      await new Promise((resolve) => setTimeout(resolve, SAMPLE_EVERY_MS));
    }
    assert.fail(`no sample of the slot at ${iso(slot)}`);
  };

  test("a slot's sample holds every online driver's position and whether a ride holds them", async () => {
    const points = [
      { lat: 12.9716, lon: 77.5946 },
      { lat: 12.9352, lon: 77.6245 },
      { lat: 13.0358, lon: 77.597 },
    ];
    const drivers = [];
    for (const point of points) drivers.push(await driverAt(t, point));
    const rider = await signUp(t, { role: 'RIDER' });
    const ride = await bookRide(t, rider);
    assert.equal((await accept(t, drivers[0], ride.id)).status, 200);

    t.clock.advance(SUPPLY_SAMPLE_MS);
    const slot = slotOf(t.clock.now());
    const samples = await sampleOf(slot);
    assert.deepEqual(samples, [{ at: iso(slot), online: 3, busy: 1 }]);

    const { db } = connectDatabase(t.config.database);
    try {
      const row = await db.selectFrom('supply_samples').select('drivers').where('at', '=', slot).executeTakeFirstOrThrow();
      const sampled = unpackSample(row.drivers);
      assert.deepEqual(sampled.map((d) => d.driverId), drivers.map((d) => d.id).sort((a, b) => a - b));
      drivers.forEach((driver, i) => {
        const found = sampled.find((d) => d.driverId === driver.id)!;
        assert.equal(found.busy, i === 0, `driver ${i} busy`);
        assert.ok(Math.abs(found.lat - points[i].lat) < 1e-5 && Math.abs(found.lon - points[i].lon) < 1e-5);
      });
    } finally {
      await db.destroy();
    }
  });

  test('two instances on one database store one sample a slot', async () => {
    // Same database and clock; on production mode the same Redis too.
    const other: FastifyInstance = await buildApp(t.config, { clock: t.clock, logger: false, supplySampleIntervalMs: SAMPLE_EVERY_MS });
    try {
      t.clock.advance(SUPPLY_SAMPLE_MS);
      const slot = slotOf(t.clock.now());
      await sampleOf(slot);
      // Both keep trying the slot meanwhile: still the one sample.
      await new Promise((resolve) => setTimeout(resolve, 10 * SAMPLE_EVERY_MS));
      assert.equal((await supply(slot, slot + SUPPLY_SAMPLE_MS)).samples.length, 1);
    } finally {
      await other.close();
    }
  });

  test('samples older than REPLAY_RETENTION_DAYS go as new ones are taken', async () => {
    t.clock.advance(SUPPLY_SAMPLE_MS);
    const old = slotOf(t.clock.now());
    await sampleOf(old);
    t.clock.advance(t.config.replayRetentionDays * DAY_MS + SUPPLY_SAMPLE_MS);
    // The operator's access token has long expired by then.
    const { accessToken } = await apiOf(t).call(routes.auth.login, { body: { email: admin.email, password: admin.password, role: 'ADMIN' } });
    admin = { ...admin, token: accessToken };
    await sampleOf(slotOf(t.clock.now()));
    assert.deepEqual((await supply(old, old + SUPPLY_SAMPLE_MS)).samples, []);
  });

  test('a period is checked: from before to, at most 8 days, operators only', async () => {
    const now = t.clock.now();
    const bad = (query: { from: string; to: string }, user: TestUser = admin) => apiOf(t, user).send(routes.admin.supply, { query });
    assert.equal((await bad({ from: iso(now), to: iso(now) })).status, 400);
    assert.equal((await bad({ from: iso(now - 9 * DAY_MS), to: iso(now) })).status, 400);
    assert.equal((await bad({ from: 'yesterday', to: iso(now) })).status, 400);
    const rider = await signUp(t, { role: 'RIDER' });
    assert.equal((await bad({ from: iso(now - DAY_MS), to: iso(now) }, rider)).status, 403);
  });
});

describe('supply samples of a simulated city', () => {
  let t: TestApp;
  let admin: TestUser;
  before(async () => {
    const email = uniqueEmail('admin');
    t = await createTestApp({ adminEmails: new Set([email]), simulationSpeed: 20 }, { supplySampleIntervalMs: SAMPLE_EVERY_MS });
    admin = await signUp(t, { role: 'ADMIN', email });
  });
  after(() => t.close());

  test('under SIMULATION_SPEED, a slot is 30 s of the city\'s time: at 20×, a sample every 1.5 s of the clock', async () => {
    await driverAt(t, { lat: 12.9716, lon: 77.5946 });
    const from = t.clock.now() - (t.clock.now() % 1_500);
    for (let slot = 0; slot < 3; slot++, t.clock.advance(1_500)) {
      for (const deadline = Date.now() + 10_000; ; ) {
        const { samples, sampleSeconds } = await apiOf(t, admin).call(routes.admin.supply, { query: { from: iso(from), to: iso(from + 10_000) } });
        assert.equal(sampleSeconds, 1.5);
        if (samples.length === slot + 1) {
          assert.deepEqual(samples.map((sample) => Date.parse(sample.at) - from), Array.from({ length: slot + 1 }, (_, i) => i * 1_500));
          break;
        }
        assert.ok(Date.now() < deadline, `slot ${slot} sampled`);
        await new Promise((resolve) => setTimeout(resolve, SAMPLE_EVERY_MS));
      }
    }
  });
});
