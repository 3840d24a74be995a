import assert from 'node:assert/strict';
import { after, before, describe, mock, test } from 'node:test';
import type { Kysely } from 'kysely';
import { connectDatabase, type DatabaseConnection } from '../../../src/db/connect.ts';
import type { Database } from '../../../src/db/database.ts';
import { call, createTestApp, freshDatabase, smtpSink, type TestApp } from '../../helpers/app.ts';
import { uniqueEmail, type TestUser } from '../../helpers/factories.ts';
import { http, serverEnv, startServer } from '../../helpers/server-process.ts';
import type { SmtpSink } from '../../helpers/smtp-sink.ts';
import { acceptedRide, rideStatus, signUpMany, TRIP } from '../../helpers/rides.ts';

const REPORT_EVERY_MS = 5000;

/** Positions along the road from the pickup point, one per report. */
const along = (step: number) => ({ lat: TRIP.pickupLat + step * 0.001, lon: TRIP.pickupLon + step * 0.0007 });

async function postLocation(t: TestApp, driver: TestUser, rideId: number, point: { lat: number; lon: number }) {
  const reply = await call(t.app, 'POST', `/rides/location/${rideId}`, { token: driver.token, body: point });
  assert.equal(reply.status, 200, JSON.stringify(reply.body));
  assert.equal(reply.body.driverLat, point.lat);
  assert.equal(reply.body.driverLon, point.lon);
  return reply.body;
}

const shown = (ride: { driverLat: number | null; driverLon: number | null; driverLocationUpdatedAt: string | null }) => ({
  lat: ride.driverLat,
  lon: ride.driverLon,
  at: ride.driverLocationUpdatedAt,
});

const iso = (ms: number) => new Date(ms).toISOString();

// The drivers module owns positions: a report goes to the location index at once and to the
// driver's presence row in batches; a ride shows its driver's position from there.
describe('driver positions of a ride are written in batches', () => {
  let t: TestApp;
  let db: Kysely<Database>;
  let connection: DatabaseConnection;
  let riders: TestUser[];
  let drivers: TestUser[];

  /** The stored position of the ride's driver, read past the app. */
  const row = async (rideId: number) => {
    const found = await db
      .selectFrom('rides')
      .leftJoin('driver_presence', 'driver_presence.driver_id', 'rides.driver_id')
      .select(['driver_presence.lat', 'driver_presence.lon', 'driver_presence.updated_at'])
      .where('rides.id', '=', rideId)
      .executeTakeFirstOrThrow();
    return { lat: found.lat, lon: found.lon, at: found.updated_at === null ? null : iso(Number(found.updated_at)) };
  };
  /** Waits (real time) until the row holds the expected position. */
  const rowBecomes = async (rideId: number, expected: { lat: number; lon: number; at: string }) => {
    for (let waited = 0; waited < 3000; waited += 10) {
      const current = await row(rideId);
      if (current.lat === expected.lat && current.lon === expected.lon && current.at === expected.at) return;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    assert.deepEqual(await row(rideId), expected, `ride ${rideId}: the row was not written`);
  };

  before(async () => {
    // The flush timer only fires when the test moves it, so "not written yet" is certain.
    mock.timers.enable({ apis: ['setInterval'] });
    t = await createTestApp();
    connection = connectDatabase(t.config.database);
    db = connection.db;
    [riders, drivers] = await Promise.all([signUpMany(t, 6, 'RIDER'), signUpMany(t, 6, 'DRIVER')]);
  });
  after(async () => {
    await connection.destroy();
    await t.close();
    mock.timers.reset();
  });

  let firstRide: number;
  let latest: { lat: number; lon: number; at: string };

  test('the ride status shows the newest reported position before the row is written', async () => {
    const { booked } = await acceptedRide(t, riders[0], drivers[0]);
    firstRide = booked.id;
    assert.deepEqual(shown(await rideStatus(t, booked.id)), { lat: null, lon: null, at: null }, 'no position before the first report');

    for (let step = 1; step <= 3; step++) {
      if (step > 1) t.clock.advance(REPORT_EVERY_MS);
      const reply = await postLocation(t, drivers[0], booked.id, along(step));
      assert.equal(reply.driverLocationUpdatedAt, iso(t.clock.now()));
    }
    latest = { ...along(3), at: iso(t.clock.now()) };

    assert.deepEqual(await row(booked.id), { lat: null, lon: null, at: null }, 'precondition: the batch has not been written');
    assert.deepEqual(shown(await rideStatus(t, booked.id)), latest, 'the third (newest) report, not an older one');
    // The position also feeds the nearby search.
    const nearby = await call(t.app, 'GET', `/rides/drivers/nearby?lat=${latest.lat}&lon=${latest.lon}&radiusKm=1`);
    assert.deepEqual(nearby.body.map((d: { driverId: number }) => d.driverId), [drivers[0].id]);
  });

  test('the batch reaches the row within a second, with only the newest position', async () => {
    mock.timers.tick(999);
    await new Promise((resolve) => setTimeout(resolve, 50));
    assert.deepEqual(await row(firstRide), { lat: null, lon: null, at: null }, 'not before the second is up');
    mock.timers.tick(1);
    await rowBecomes(firstRide, latest);

    t.clock.advance(REPORT_EVERY_MS);
    await postLocation(t, drivers[0], firstRide, along(4));
    const fourth = { ...along(4), at: iso(t.clock.now()) };
    assert.deepEqual(shown(await rideStatus(t, firstRide)), fourth, 'a report newer than the row wins over the row');
    assert.deepEqual(await row(firstRide), latest);
    mock.timers.tick(1000);
    await rowBecomes(firstRide, fourth);
    latest = fourth;
  });

  test('the stored position stays after the live one has gone stale', async () => {
    t.clock.advance(2 * 60_000 + 1);
    assert.deepEqual(shown(await rideStatus(t, firstRide)), latest);
  });

  test('a graceful restart writes the pending batch: the status still shows the newest position', async () => {
    const { booked } = await acceptedRide(t, riders[1], drivers[1]);
    await postLocation(t, drivers[1], booked.id, along(10));
    t.clock.advance(REPORT_EVERY_MS);
    await postLocation(t, drivers[1], booked.id, along(11));
    const newest = { ...along(11), at: iso(t.clock.now()) };
    assert.deepEqual(await row(booked.id), { lat: null, lon: null, at: null }, 'precondition: the batch has not been written');

    await t.restart();
    // The new app's location index starts from the stored positions of drivers who were online.
    assert.deepEqual(await row(booked.id), newest);
    assert.deepEqual(shown(await rideStatus(t, booked.id)), newest);
  });

  test('right after a ride ends, its status says so and its driver can no longer report on it', async () => {
    const { booked } = await acceptedRide(t, riders[5], drivers[5]);
    await postLocation(t, drivers[5], booked.id, along(1));
    assert.equal((await rideStatus(t, booked.id)).status, 'ACCEPTED');
    const cancelled = await call(t.app, 'POST', `/rides/cancel/${booked.id}`, { token: riders[5].token });
    assert.equal(cancelled.status, 200);
    assert.equal((await rideStatus(t, booked.id)).status, 'CANCELLED', 'no stale status after the change');
    const late = await call(t.app, 'POST', `/rides/location/${booked.id}`, { token: drivers[5].token, body: along(2) });
    assert.equal(late.status, 409);
  });

  test('the positions of several rides in one batch are all written', async () => {
    const rides: number[] = [];
    for (let i = 2; i < 5; i++) rides.push((await acceptedRide(t, riders[i], drivers[i])).booked.id);
    const expected = new Map<number, { lat: number; lon: number; at: string }>();
    for (let round = 0; round < 2; round++) {
      t.clock.advance(REPORT_EVERY_MS);
      for (const [i, rideId] of rides.entries()) {
        const point = along(20 + i * 5 + round);
        await postLocation(t, drivers[i + 2], rideId, point);
        expected.set(rideId, { ...point, at: iso(t.clock.now()) });
      }
    }
    for (const rideId of rides) assert.deepEqual(await row(rideId), { lat: null, lon: null, at: null }, `precondition: ride ${rideId} not written`);

    await t.restart();
    for (const rideId of rides) {
      assert.deepEqual(await row(rideId), expected.get(rideId), `ride ${rideId}`);
      assert.deepEqual(shown(await rideStatus(t, rideId)), expected.get(rideId), `ride ${rideId}`);
    }
  });
});

describe('a real server process writes pending positions when it stops', () => {
  let database: Awaited<ReturnType<typeof freshDatabase>>;
  let smtp: SmtpSink;
  let env: Record<string, string | undefined>;
  before(async () => {
    database = await freshDatabase();
    smtp = await smtpSink();
    env = serverEnv(database.url, smtp.url);
  });
  after(() => database.drop());

  async function account(url: string, role: 'RIDER' | 'DRIVER') {
    const email = uniqueEmail(role.toLowerCase());
    const password = 'correct horse battery';
    const mailsBefore = smtp.mails.length;
    assert.equal((await http(`${url}/auth/signup/request-otp`, 'POST', { name: role, email })).status, 200);
    const otp = await smtp.otpFor(email, mailsBefore);
    assert.equal((await http(`${url}/auth/signup`, 'POST', { name: role, email, password, otp, role })).status, 200);
    const login = await http(`${url}/auth/login`, 'POST', { email, password, role });
    assert.equal(login.status, 200);
    return { id: login.body.id as number, token: login.body.accessToken as string };
  }

  test('post a location, SIGTERM, start again: the ride shows the position', async () => {
    const first = await startServer(env);
    let rideId: number;
    let newest: { lat: number; lon: number };
    try {
      const rider = await account(first.url, 'RIDER');
      const driver = await account(first.url, 'DRIVER');
      const booked = await http(`${first.url}/rides/book`, 'POST', { pickupLocation: 'MG Road', dropLocation: 'Koramangala', ...TRIP }, rider.token);
      assert.equal(booked.status, 200, JSON.stringify(booked.body));
      rideId = booked.body.id;
      const accepted = await http(`${first.url}/rides/status/${rideId}`, 'POST', { status: 'ACCEPTED', driverId: String(driver.id) }, driver.token);
      assert.equal(accepted.status, 200, JSON.stringify(accepted.body));
      for (let step = 1; step <= 3; step++) {
        const reply = await http(`${first.url}/rides/location/${rideId}`, 'POST', along(step), driver.token);
        assert.equal(reply.status, 200, JSON.stringify(reply.body));
      }
      newest = along(3);
    } finally {
      // Straight after the last report, well inside the one-second batch interval.
      first.child.kill('SIGTERM');
    }
    assert.equal(await first.exited, 0, first.output());

    const second = await startServer(env);
    try {
      const status = await http(`${second.url}/rides/status/${rideId}`);
      assert.equal(status.status, 200);
      assert.equal(status.body.driverLat, newest.lat);
      assert.equal(status.body.driverLon, newest.lon);
      assert.equal(typeof status.body.driverLocationUpdatedAt, 'string');
    } finally {
      second.child.kill('SIGTERM');
      await second.exited;
    }
  });
});
