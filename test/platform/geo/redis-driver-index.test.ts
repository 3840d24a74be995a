import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import type { Redis } from 'ioredis';
import pino from 'pino';
import { POSITION_TTL_MS, type DriverPosition } from '../../../src/platform/geo/driver-index.ts';
import type { Point } from '../../../src/platform/geo/geo.ts';
import { RedisDriverIndex } from '../../../src/platform/geo/redis-driver-index.ts';
import { createRedis, untilReady } from '../../../src/platform/redis.ts';
import { bruteForce, destination, ids, mulberry32, NOW } from '../../helpers/geo.ts';
import { productionServicesMissing, REDIS_URL } from '../../helpers/production.ts';

const missing = await productionServicesMissing();

describe('RedisDriverIndex against a brute-force search', { skip: missing }, () => {
  const prefix = `test:${randomBytes(6).toString('hex')}:`;
  let redis: Redis;
  let index: RedisDriverIndex;
  const latest = new Map<number, DriverPosition>();
  const random = mulberry32(7_140_211);
  const CITIES: Point[] = [
    { lat: 12.9716, lon: 77.5946 },
    { lat: 19.076, lon: 72.8777 },
    { lat: -33.8688, lon: 151.2093 },
    { lat: 64.1466, lon: -21.9426 },
    { lat: -17.8, lon: 179.99 },
  ];

  before(async () => {
    redis = createRedis(REDIS_URL, prefix, pino({ level: 'silent' }));
    await untilReady(redis);
    index = new RedisDriverIndex(redis, { now: () => NOW });
    let driverId = 1;
    for (const city of CITIES) {
      for (let i = 0; i < 1200; i++) {
        const point = destination(city, random() * 360, 30 * random() ** 1.5);
        const ageMs = random() < 0.9 ? Math.floor(random() * (POSITION_TTL_MS - 1)) : POSITION_TTL_MS + Math.floor(random() * POSITION_TTL_MS);
        const position = { driverId, ...point, updatedAt: NOW - ageMs };
        latest.set(driverId++, position);
        await index.upsert(position);
      }
    }
  });
  after(async () => {
    await index.close();
    await redis.del('drivers:geo', 'drivers:pos', 'drivers:seen', 'drivers:polar');
    redis.disconnect();
  });

  test('200 random queries give the same drivers, order, positions and distances', async () => {
    let nonEmpty = 0;
    for (let q = 0; q < 200; q++) {
      const center = destination(CITIES[q % CITIES.length], random() * 360, 35 * random());
      const radiusKm = 0.1 + random() * 49.9;
      const limit = 1 + Math.floor(random() * 100);
      const expected = bruteForce(latest.values(), center, radiusKm, limit, NOW);
      const actual = await index.nearby(center, radiusKm, limit, NOW);
      if (expected.length) nonEmpty++;
      assert.deepEqual(actual, expected, `query ${q}: ${JSON.stringify(center)} ${radiusKm.toFixed(3)} km, limit ${limit}`);
    }
    assert.ok(nonEmpty > 150, `most queries find drivers (${nonEmpty})`);
  });

  test('the search widens past a first ring crowded with stale drivers and past an empty one', async () => {
    const center = { lat: 40.4168, lon: -3.7038 }; // no other test driver within 1,000 km
    const positions: DriverPosition[] = [];
    for (let i = 0; i < 60; i++) positions.push({ driverId: 800_000 + i, ...destination(center, i * 6, 0.05 + i * 0.01), updatedAt: NOW - POSITION_TTL_MS - 1 });
    for (let i = 0; i < 8; i++) positions.push({ driverId: 800_100 + i, ...destination(center, i * 45, 2 + i * 0.5), updatedAt: NOW - 1000 });
    positions.push({ driverId: 800_200, ...destination(center, 10, 30), updatedAt: NOW - 1000 });
    for (const position of positions) await index.upsert(position);
    try {
      assert.deepEqual(ids(await index.nearby(center, 10, 5, NOW)), [800_100, 800_101, 800_102, 800_103, 800_104], 'fresh drivers beyond the stale crowd');
      assert.deepEqual(await index.nearby(center, 40, 20, NOW), bruteForce(positions, center, 40, 20, NOW), 'every ring up to the radius');
      assert.deepEqual(ids(await index.nearby(center, 0.5, 5, NOW)), [], 'only stale drivers within the radius');
    } finally {
      for (const { driverId } of positions) await index.remove(driverId);
    }
  });

  test('near the poles, beyond what Redis GEO can hold (±85.05°), and across the antimeridian, answers match the brute force', async () => {
    const polar = new RedisDriverIndex(redis, { now: () => NOW }, 'polar-test');
    const spots: Point[] = [{ lat: 89.99, lon: 0 }, { lat: -89.99, lon: 120 }, { lat: 85.05, lon: 180 }, { lat: -85.2, lon: -179.99 }, { lat: 60, lon: 180 }];
    const positions: DriverPosition[] = [];
    for (const spot of spots) {
      for (let i = 0; i < 150; i++) {
        const ageMs = random() < 0.9 ? 1000 : POSITION_TTL_MS + 1;
        positions.push({ driverId: positions.length + 1, ...destination(spot, random() * 360, 60 * random()), updatedAt: NOW - ageMs });
      }
    }
    try {
      for (const position of positions) await polar.upsert(position);
      for (let q = 0; q < 60; q++) {
        const center = destination(spots[q % spots.length], random() * 360, 40 * random());
        const radiusKm = q % 4 === 0 ? 50 : 0.5 + random() * 30;
        const limit = 1 + Math.floor(random() * 40);
        assert.deepEqual(await polar.nearby(center, radiusKm, limit, NOW), bruteForce(positions, center, radiusKm, limit, NOW), `${JSON.stringify(center)} ${radiusKm} km, limit ${limit}`);
      }
      // A driver who drives out of a polar cap is found at the new place only.
      const mover = positions[0];
      await polar.upsert({ ...mover, lat: 80, lon: 0, updatedAt: NOW });
      assert.ok(!ids(await polar.nearby({ lat: 89.99, lon: 0 }, 50, 100, NOW)).includes(mover.driverId));
      assert.deepEqual(ids(await polar.nearby({ lat: 80, lon: 0 }, 1, 10, NOW)), [mover.driverId]);
    } finally {
      await polar.close();
      await redis.del('polar-test:geo', 'polar-test:pos', 'polar-test:seen', 'polar-test:polar');
    }
  });

  test('every fresh driver, as positions and as columns', async () => {
    const fresh = [...latest.values()].filter((p) => p.updatedAt > NOW - POSITION_TTL_MS).sort((a, b) => a.driverId - b.driverId);
    const positions = (await index.fresh(NOW)).sort((a, b) => a.driverId - b.driverId);
    assert.deepEqual(positions.map((p) => [p.driverId, p.lat, p.lon]), fresh.map((p) => [p.driverId, p.lat, p.lon]));
    const { driverIds, lats, lons } = await index.freshColumns(NOW);
    const fromColumns = Array.from(driverIds, (driverId, i) => [driverId, lats[i], lons[i]]).sort((a, b) => a[0] - b[0]);
    assert.deepEqual(fromColumns, fresh.map((p) => [p.driverId, p.lat, p.lon]));
  });

  test('get, an older report, remove and sweep', async () => {
    const point = { lat: 12.9716, lon: 77.5946 };
    await index.upsert({ driverId: 900_001, ...point, updatedAt: NOW - 1000 });
    await index.upsert({ driverId: 900_001, lat: 0, lon: 0, updatedAt: NOW - 5000 });
    assert.deepEqual(await index.get(900_001, NOW), { driverId: 900_001, ...point, updatedAt: NOW - 1000 }, 'the older report was ignored');
    assert.equal(await index.get(900_001, NOW + POSITION_TTL_MS), undefined, 'stale once two minutes old');
    await index.remove(900_001);
    assert.equal(await index.get(900_001, NOW), undefined);
    assert.ok(!ids(await index.nearby(point, 1, 100, NOW)).includes(900_001));

    const staleBefore = [...latest.values()].filter((p) => p.updatedAt <= NOW - POSITION_TTL_MS).length;
    assert.ok(staleBefore > 0);
    await index.sweep(NOW);
    assert.equal(await redis.zcard('drivers:seen'), latest.size - staleBefore, 'stale drivers are gone from Redis');
  });
});
