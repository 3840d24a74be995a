import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { haversineKm, type Point } from '../../../src/platform/geo/geo.ts';
import { call, createTestApp, type TestApp } from '../../helpers/app.ts';
import { signUp, type TestUser } from '../../helpers/factories.ts';
import { destination, round3 } from '../../helpers/geo.ts';
import { assertError, signUpMany } from '../../helpers/rides.ts';

const TWO_MINUTES = 2 * 60_000;

const report = (t: TestApp, driver: TestUser, point: Point) => call(t.app, 'PUT', '/drivers/me/location', { token: driver.token, body: point });

async function reportOk(t: TestApp, driver: TestUser, point: Point) {
  const reply = await report(t, driver, point);
  assert.equal(reply.status, 200, JSON.stringify(reply.body));
  return reply.body;
}

type Query = { [name: string]: string | number };

/** GET /rides/drivers/nearby with the given query, without a token (the endpoint is public). */
function nearby(t: TestApp, query: Query) {
  const search = new URLSearchParams(Object.entries(query).map(([k, v]): [string, string] => [k, String(v)]));
  return call(t.app, 'GET', `/rides/drivers/nearby?${search.toString()}`);
}

async function nearbyIds(t: TestApp, query: Query): Promise<number[]> {
  const reply = await nearby(t, query);
  assert.equal(reply.status, 200, JSON.stringify(reply.body));
  return reply.body.map((d: { driverId: number }) => d.driverId);
}

describe('drivers report their position between rides', () => {
  let t: TestApp;
  let drivers: TestUser[];
  let rider: TestUser;
  let user: TestUser;
  before(async () => {
    t = await createTestApp();
    drivers = await signUpMany(t, 12, 'DRIVER');
    rider = await signUp(t, { role: 'RIDER' });
    user = await signUp(t, { role: 'USER' });
  });
  after(() => t.close());

  // Each test works in its own town, far from the others.
  test('a reported position makes the driver appear in the public nearby search', async () => {
    const center = { lat: 12.9716, lon: 77.5946 };
    const spot = destination(center, 60, 1.2);
    const [driver] = drivers;
    const reported = await reportOk(t, driver, spot);
    assert.equal(reported.driverId, driver.id);
    assert.equal(reported.lat, spot.lat);
    assert.equal(reported.lon, spot.lon);
    assert.equal(reported.updatedAt, new Date(t.clock.now()).toISOString());
    assert.equal(Date.parse(reported.visibleUntil) - Date.parse(reported.updatedAt), TWO_MINUTES);

    const reply = await nearby(t, { lat: center.lat, lon: center.lon });
    assert.equal(reply.status, 200);
    assert.equal(reply.body.length, 1);
    const [entry] = reply.body;
    assert.equal(typeof entry.driverId, 'number');
    assert.equal(entry.driverId, driver.id);
    assert.equal(entry.lat, spot.lat);
    assert.equal(entry.lon, spot.lon);
    assert.equal(typeof entry.distanceKm, 'number');
    assert.equal(entry.distanceKm, round3(haversineKm(center, spot)));
    assert.equal(entry.distanceKm, 1.2);
  });

  test('GET /drivers/me/location shows the latest reported position', async () => {
    const driver = drivers[1];
    const first = { lat: 19.076, lon: 72.8777 };
    const second = destination(first, 0, 8);
    await reportOk(t, driver, first);
    const seen = await call(t.app, 'GET', '/drivers/me/location', { token: driver.token });
    assert.equal(seen.status, 200);
    assert.deepEqual({ driverId: seen.body.driverId, lat: seen.body.lat, lon: seen.body.lon }, { driverId: driver.id, ...first });

    t.clock.advance(5000);
    const moved = await reportOk(t, driver, second);
    const again = await call(t.app, 'GET', '/drivers/me/location', { token: driver.token });
    assert.deepEqual(again.body, moved);
    assert.equal(again.body.updatedAt, new Date(t.clock.now()).toISOString());
    assert.deepEqual(await nearbyIds(t, { ...first, radiusKm: 5 }), [], 'the old position is forgotten');
    assert.deepEqual(await nearbyIds(t, { ...second }), [driver.id]);
  });

  test('DELETE /drivers/me/location takes the driver offline', async () => {
    const driver = drivers[2];
    const spot = { lat: 28.6139, lon: 77.209 };
    await reportOk(t, driver, spot);
    assert.deepEqual(await nearbyIds(t, spot), [driver.id]);

    const offline = await call(t.app, 'DELETE', '/drivers/me/location', { token: driver.token });
    assert.equal(offline.status, 200);
    assert.equal(typeof offline.body.message, 'string');
    assertError(await call(t.app, 'GET', '/drivers/me/location', { token: driver.token }), 404);
    assert.deepEqual(await nearbyIds(t, spot), []);
    assert.equal((await call(t.app, 'DELETE', '/drivers/me/location', { token: driver.token })).status, 200, 'going offline twice is fine');

    await reportOk(t, driver, spot);
    assert.deepEqual(await nearbyIds(t, spot), [driver.id], 'a new report makes the driver visible again');
  });

  test('a driver who never reported has no position', async () => {
    const fresh = await signUp(t, { role: 'DRIVER' });
    assertError(await call(t.app, 'GET', '/drivers/me/location', { token: fresh.token }), 404);
  });

  test('riders and users may not report, read or clear a driver position (403)', async () => {
    const spot = { lat: 13.0827, lon: 80.2707 };
    for (const who of [rider, user]) {
      assertError(await report(t, who, spot), 403);
      assertError(await call(t.app, 'GET', '/drivers/me/location', { token: who.token }), 403);
      assertError(await call(t.app, 'DELETE', '/drivers/me/location', { token: who.token }), 403);
    }
    assert.deepEqual(await nearbyIds(t, spot), [], 'nobody became visible');
  });

  test('without a valid token the driver endpoints answer 401', async () => {
    const spot = { lat: 13.0827, lon: 80.2707 };
    assertError(await call(t.app, 'PUT', '/drivers/me/location', { body: spot }), 401);
    assertError(await call(t.app, 'GET', '/drivers/me/location'), 401);
    assertError(await call(t.app, 'DELETE', '/drivers/me/location'), 401);
    assertError(await call(t.app, 'PUT', '/drivers/me/location', { token: `${drivers[0].token}x`, body: spot }), 401);
    assert.deepEqual(await nearbyIds(t, spot), []);
  });

  test('coordinates out of range or of the wrong type are a 400', async () => {
    const driver = drivers[3];
    const bad: unknown[] = [
      { lat: 90.0001, lon: 0 },
      { lat: -91, lon: 0 },
      { lat: 0, lon: 180.0001 },
      { lat: 0, lon: -181 },
      { lat: 'north', lon: 0 },
      { lat: 10 },
      { lon: 10 },
      {},
      { lat: null, lon: null },
    ];
    for (const body of bad) assertError(await call(t.app, 'PUT', '/drivers/me/location', { token: driver.token, body }), 400);
    assertError(await call(t.app, 'GET', '/drivers/me/location', { token: driver.token }), 404);
  });

  test('the edges of the coordinate range are accepted', async () => {
    const driver = drivers[3];
    for (const point of [{ lat: 90, lon: 180 }, { lat: -90, lon: -180 }, { lat: 0, lon: 0 }]) {
      const reply = await reportOk(t, driver, point);
      assert.equal(reply.lat, point.lat);
      assert.equal(reply.lon, point.lon);
    }
    await call(t.app, 'DELETE', '/drivers/me/location', { token: driver.token });
  });

  test('the radius is 5 km unless given', async () => {
    const center = { lat: 17.385, lon: 78.4867 };
    const [near, far] = [drivers[4], drivers[5]];
    await reportOk(t, near, destination(center, 90, 4.9));
    await reportOk(t, far, destination(center, 0, 6));
    assert.deepEqual(await nearbyIds(t, center), [near.id]);
    assert.deepEqual(await nearbyIds(t, { ...center, radiusKm: 7 }), [near.id, far.id]);
    assert.deepEqual(await nearbyIds(t, { ...center, radiusKm: 4.8 }), []);
    assert.deepEqual(await nearbyIds(t, { ...center, radiusKm: 50 }), [near.id, far.id]);
  });

  test('at most 10 drivers by default, nearest first; limit changes that', async () => {
    const center = { lat: 22.5726, lon: 88.3639 };
    // Driver i waits 150 m × (12 − i) away, so the order of the list is the reverse of sign-up order.
    const spots = drivers.map((_, i) => destination(center, i * 30, 0.15 * (12 - i)));
    for (const [i, driver] of drivers.entries()) await reportOk(t, driver, spots[i]);
    const byDistance = [...drivers].reverse().map((d) => d.id);

    const reply = await nearby(t, { ...center });
    assert.equal(reply.status, 200);
    assert.deepEqual(reply.body.map((d: { driverId: number }) => d.driverId), byDistance.slice(0, 10));
    const distances = reply.body.map((d: { distanceKm: number }) => d.distanceKm);
    assert.deepEqual(distances, [...distances].sort((a, b) => a - b));
    assert.deepEqual(distances, [0.15, 0.3, 0.45, 0.6, 0.75, 0.9, 1.05, 1.2, 1.35, 1.5]);

    assert.deepEqual(await nearbyIds(t, { ...center, limit: 12 }), byDistance);
    assert.deepEqual(await nearbyIds(t, { ...center, limit: 100 }), byDistance);
    assert.deepEqual(await nearbyIds(t, { ...center, limit: 3 }), byDistance.slice(0, 3));
    assert.deepEqual(await nearbyIds(t, { ...center, limit: 1 }), byDistance.slice(0, 1));
    assert.deepEqual(await nearbyIds(t, { ...center, radiusKm: 0.5 }), byDistance.slice(0, 3));
  });

  test('an empty neighbourhood is an empty list with 200', async () => {
    const reply = await nearby(t, { lat: -33.8688, lon: 151.2093 });
    assert.equal(reply.status, 200);
    assert.deepEqual(reply.body, []);
    assert.deepEqual((await nearby(t, { lat: -33.8688, lon: 151.2093, radiusKm: 50, limit: 100 })).body, []);
  });

  test('radiusKm above 50, limit above 100 and other bad queries are a 400', async () => {
    const at = { lat: 12.9716, lon: 77.5946 };
    assert.equal((await nearby(t, { ...at, radiusKm: 50, limit: 100 })).status, 200, 'the maximum values are allowed');
    const bad: Query[] = [
      { ...at, radiusKm: 50.01 },
      { ...at, radiusKm: 51 },
      { ...at, radiusKm: 0 },
      { ...at, radiusKm: -1 },
      { ...at, radiusKm: 'far' },
      { ...at, limit: 101 },
      { ...at, limit: 0 },
      { ...at, limit: 2.5 },
      { ...at, limit: 'many' },
      { lon: at.lon },
      { lat: at.lat },
      { lat: 91, lon: 0 },
      { lat: 0, lon: -180.5 },
    ];
    for (const query of bad) assertError(await nearby(t, query), 400);
  });
});

describe('a driver position is visible for two minutes', () => {
  let t: TestApp;
  let driver: TestUser;
  before(async () => {
    t = await createTestApp();
    driver = await signUp(t, { role: 'DRIVER' });
  });
  after(() => t.close());

  test('two minutes after the last report the driver disappears', async () => {
    const spot = { lat: 12.9716, lon: 77.5946 };
    await reportOk(t, driver, spot);
    t.clock.advance(TWO_MINUTES - 1);
    assert.deepEqual(await nearbyIds(t, spot), [driver.id], 'still visible a millisecond before the two minutes are up');
    assert.equal((await call(t.app, 'GET', '/drivers/me/location', { token: driver.token })).status, 200);

    t.clock.advance(2);
    assert.deepEqual(await nearbyIds(t, spot), []);
    assertError(await call(t.app, 'GET', '/drivers/me/location', { token: driver.token }), 404);
  });

  test('each report starts the two minutes again', async () => {
    const spot = { lat: 12.9716, lon: 77.5946 };
    await reportOk(t, driver, spot);
    t.clock.advance(90_000);
    await reportOk(t, driver, spot);
    t.clock.advance(90_000);
    assert.deepEqual(await nearbyIds(t, spot), [driver.id], '3 minutes after the first report, 1.5 after the second');
    t.clock.advance(TWO_MINUTES + 1 - 90_000);
    assert.deepEqual(await nearbyIds(t, spot), []);
    assertError(await call(t.app, 'GET', '/drivers/me/location', { token: driver.token }), 404);
  });
});
