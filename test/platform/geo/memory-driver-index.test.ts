import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { POSITION_TTL_MS, type DriverPosition } from '../../../src/platform/geo/driver-index.ts';
import { CELL_KM } from '../../../src/platform/geo/circle-cells.ts';
import { MemoryDriverIndex } from '../../../src/platform/geo/memory-driver-index.ts';
import { haversineKm, type Point } from '../../../src/platform/geo/geo.ts';
import { bruteForce, destination, ids, KM_PER_DEGREE, mulberry32, NOW, round3 } from '../../helpers/geo.ts';

/** One index per test, closed afterwards so its sweep timer does not outlive the test. */
function withIndex(run: (index: MemoryDriverIndex) => Promise<void>): () => Promise<void> {
  return async () => {
    const index = new MemoryDriverIndex(() => NOW);
    try {
      await run(index);
    } finally {
      await index.close();
    }
  };
}

const fresh = (driverId: number, point: Point, ageMs = 0): DriverPosition => ({ driverId, ...point, updatedAt: NOW - ageMs });

describe('MemoryDriverIndex against a brute-force search on 20,000 random drivers', () => {
  const random = mulberry32(20_261_122);
  const between = (low: number, high: number) => low + random() * (high - low);
  /** A point within `maxKm` of `center`, denser towards the middle. */
  const around = (center: Point, maxKm: number) => destination(center, random() * 360, maxKm * random() ** 1.5);
  /** Within `maxKm` of a pole, on any meridian (a bearing from the pole itself would not spread them). */
  const nearPole = (sign: 1 | -1, maxKm: number): Point => ({ lat: sign * (90 - (maxKm * random() ** 1.5) / KM_PER_DEGREE), lon: between(-180, 180) });
  const anywhere = (): Point => ({ lat: (Math.asin(2 * random() - 1) * 180) / Math.PI, lon: between(-180, 180) });

  const CITIES: Point[] = [
    { lat: 12.9716, lon: 77.5946 }, // Bengaluru
    { lat: 19.076, lon: 72.8777 }, // Mumbai
    { lat: 28.6139, lon: 77.209 }, // Delhi
  ];
  const ANTIMERIDIAN: Point[] = [{ lat: -17.8, lon: 179.999 }, { lat: 65.5, lon: -179.998 }];
  const POLES = [1, -1] as const;
  const EQUATOR: Point[] = [{ lat: 0.0001, lon: 32.58 }, { lat: -0.0001, lon: -78.47 }];

  // Latest report per driver, as the index should see it.
  const latest = new Map<number, DriverPosition>();
  const index = new MemoryDriverIndex(() => NOW);
  let nextId = 1;
  const report = (point: Point, ageMs: number, driverId = nextId++) => {
    const position: DriverPosition = { driverId, lat: point.lat, lon: point.lon, updatedAt: NOW - ageMs };
    const previous = latest.get(driverId);
    if (!previous || previous.updatedAt <= position.updatedAt) latest.set(driverId, position);
    index.upsertNow(position);
  };
  /** Nine in ten fresh, one in ten stale (up to three times the TTL old). */
  const age = () => (random() < 0.9 ? Math.floor(random() * (POSITION_TTL_MS - 1)) : POSITION_TTL_MS + 1 + Math.floor(random() * 2 * POSITION_TTL_MS));

  before(() => {
    for (const city of CITIES) for (let i = 0; i < 4500; i++) report(around(city, 30), age());
    for (const spot of ANTIMERIDIAN) for (let i = 0; i < 1000; i++) report(around(spot, 40), age());
    for (const pole of POLES) for (let i = 0; i < 600; i++) report(nearPole(pole, 60), age());
    for (const spot of EQUATOR) for (let i = 0; i < 800; i++) report(around(spot, 40), age());
    while (nextId <= 20_000) report(anywhere(), age());
    // Moves: a newer report relocates the driver; an older one must be ignored.
    for (let i = 0; i < 2000; i++) {
      const driverId = 1 + Math.floor(random() * 20_000);
      const known = latest.get(driverId)!;
      const newer = i % 2 === 0;
      const ageMs = newer ? Math.max(0, NOW - known.updatedAt - 1 - Math.floor(random() * 10_000)) : NOW - known.updatedAt + 1 + Math.floor(random() * 10_000);
      report(around(CITIES[i % 3], 30), ageMs, driverId);
    }
  });
  after(() => index.close());

  function compare(centers: () => Point, queries: number) {
    const failures: string[] = [];
    let nonEmpty = 0;
    return (async () => {
      for (let q = 0; q < queries; q++) {
        const center = centers();
        const radiusKm = between(0.1, 50);
        const limit = 1 + Math.floor(random() * 100);
        const expected = bruteForce(latest.values(), center, radiusKm, limit, NOW);
        const actual = await index.nearby(center, radiusKm, limit, NOW);
        if (expected.length > 0) nonEmpty++;
        const same = actual.length === expected.length &&
          actual.every((d, i) => d.driverId === expected[i].driverId && d.distanceKm === expected[i].distanceKm && d.lat === expected[i].lat && d.lon === expected[i].lon);
        if (!same) {
          const missing = expected.filter((e) => !actual.some((a) => a.driverId === e.driverId)).slice(0, 3);
          failures.push(
            `nearby(${JSON.stringify(center)}, ${radiusKm.toFixed(3)} km, limit ${limit}): expected ${expected.length} [${ids(expected).slice(0, 8).join(',')}…], ` +
              `got ${actual.length} [${ids(actual).slice(0, 8).join(',')}…]; missing e.g. ${JSON.stringify(missing)}`,
          );
        }
      }
      return { failures, nonEmpty };
    })();
  }

  test('the index holds one entry per driver', () => {
    assert.equal(index.size, 20_000);
  });

  test('300 mixed queries match: same drivers, same order, same distances', async () => {
    const pick = () => {
      const roll = random();
      if (roll < 0.5) return around(CITIES[Math.floor(random() * 3)], 35);
      if (roll < 0.6) return around(ANTIMERIDIAN[Math.floor(random() * 2)], 45);
      if (roll < 0.7) return around(EQUATOR[Math.floor(random() * 2)], 45);
      if (roll < 0.8) return nearPole(POLES[Math.floor(random() * 2)], 70);
      return anywhere();
    };
    const { failures, nonEmpty } = await compare(pick, 300);
    assert.ok(nonEmpty >= 150, `most queries find drivers (${nonEmpty})`);
    assert.deepEqual(failures, [], `${failures.length} of 300 queries differ`);
  });

  test('cities: 150 queries match the brute force', async () => {
    const { failures, nonEmpty } = await compare(() => around(CITIES[Math.floor(random() * 3)], 35), 150);
    assert.ok(nonEmpty >= 140, `${nonEmpty}`);
    assert.deepEqual(failures, []);
  });

  test('across the antimeridian: 100 queries match the brute force', async () => {
    const { failures, nonEmpty } = await compare(() => around(ANTIMERIDIAN[Math.floor(random() * 2)], 45), 100);
    assert.ok(nonEmpty >= 80, `${nonEmpty}`);
    assert.deepEqual(failures, []);
  });

  test('across the equator: 100 queries match the brute force', async () => {
    const { failures, nonEmpty } = await compare(() => around(EQUATOR[Math.floor(random() * 2)], 45), 100);
    assert.ok(nonEmpty >= 80, `${nonEmpty}`);
    assert.deepEqual(failures, []);
  });

  test('near the poles: 50 queries match the brute force', async () => {
    const { failures, nonEmpty } = await compare(() => nearPole(POLES[Math.floor(random() * 2)], 70), 50);
    assert.ok(nonEmpty >= 25, `${nonEmpty}`);
    assert.deepEqual(failures, []);
  });

  test('anywhere on earth: 100 queries match the brute force', async () => {
    const { failures } = await compare(anywhere, 100);
    assert.deepEqual(failures, []);
  });
});

describe('MemoryDriverIndex', () => {
  const bengaluru = { lat: 12.9716, lon: 77.5946 };

  test('an empty index finds nothing', withIndex(async (index) => {
    assert.deepEqual(await index.nearby(bengaluru, 50, 100, NOW), []);
    assert.equal(await index.get(1, NOW), undefined);
    assert.equal(index.size, 0);
  }));

  test('results are sorted by distance, with the distance to 1 m, and ties broken by driver id', withIndex(async (index) => {
    index.upsertNow(fresh(5, destination(bengaluru, 90, 3)));
    index.upsertNow(fresh(3, destination(bengaluru, 0, 1)));
    // Drivers 9 and 4 wait at the same spot.
    index.upsertNow(fresh(9, destination(bengaluru, 180, 2)));
    index.upsertNow(fresh(4, destination(bengaluru, 180, 2)));
    const found = await index.nearby(bengaluru, 5, 10, NOW);
    assert.deepEqual(ids(found), [3, 4, 9, 5]);
    assert.deepEqual(found.map((d) => d.distanceKm), [1, 2, 2, 3]);
    const third = destination(bengaluru, 90, 3);
    assert.deepEqual(found[3], { driverId: 5, lat: third.lat, lon: third.lon, distanceKm: 3 });
  }));

  test('limit and radius are respected', withIndex(async (index) => {
    for (let i = 1; i <= 30; i++) index.upsertNow(fresh(i, destination(bengaluru, i * 37, i * 0.5)));
    assert.deepEqual(ids(await index.nearby(bengaluru, 50, 5, NOW)), [1, 2, 3, 4, 5]);
    assert.deepEqual(ids(await index.nearby(bengaluru, 50, 1, NOW)), [1]);
    assert.equal((await index.nearby(bengaluru, 50, 100, NOW)).length, 30);
    // 4.9 km keeps drivers 1–9 (0.5 … 4.5 km); 5.0005 km takes driver 10 at 5 km as well.
    assert.deepEqual(ids(await index.nearby(bengaluru, 4.9, 100, NOW)), [1, 2, 3, 4, 5, 6, 7, 8, 9]);
    assert.deepEqual(ids(await index.nearby(bengaluru, 5.0005, 100, NOW)), [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    assert.deepEqual(ids(await index.nearby(bengaluru, 0.4, 100, NOW)), []);
  }));

  test('positions older than two minutes are never returned, even before a sweep', withIndex(async (index) => {
    const here = destination(bengaluru, 45, 1);
    index.upsertNow(fresh(1, here, POSITION_TTL_MS - 1));
    index.upsertNow(fresh(2, here, POSITION_TTL_MS + 1));
    index.upsertNow(fresh(3, here, 10 * POSITION_TTL_MS));
    assert.equal(POSITION_TTL_MS, 120_000);
    assert.deepEqual(ids(await index.nearby(bengaluru, 5, 10, NOW)), [1]);
    assert.equal((await index.get(1, NOW))?.driverId, 1);
    assert.equal(await index.get(2, NOW), undefined);
    assert.equal(await index.get(3, NOW), undefined);
    // Two milliseconds later driver 1 has gone stale as well.
    assert.deepEqual(await index.nearby(bengaluru, 5, 10, NOW + 2), []);
    assert.equal(await index.get(1, NOW + 2), undefined);
    assert.equal(index.size, 3, 'nothing has been swept yet');
  }));

  test('get returns the stored position with its time', withIndex(async (index) => {
    const position = fresh(7, { lat: 12.5, lon: 77.25 }, 1000);
    index.upsertNow(position);
    assert.deepEqual(await index.get(7, NOW), position);
    assert.equal(await index.get(8, NOW), undefined);
  }));

  test('sweep() drops stale positions and keeps fresh ones', withIndex(async (index) => {
    index.upsertNow(fresh(1, bengaluru, 5 * 60_000));
    index.upsertNow(fresh(2, bengaluru, 3 * 60_000));
    index.upsertNow(fresh(3, bengaluru, 60_000));
    index.upsertNow(fresh(4, bengaluru, 0));
    assert.equal(index.size, 4);
    index.sweep(NOW);
    assert.equal(index.size, 2);
    assert.deepEqual(ids(await index.nearby(bengaluru, 1, 10, NOW)), [3, 4]);
    index.sweep(NOW + 60_000);
    assert.equal(index.size, 1);
    index.sweep(NOW + 10 * 60_000);
    assert.equal(index.size, 0);
    assert.deepEqual(await index.nearby(bengaluru, 1, 10, NOW), [], 'swept drivers are gone from their cells too');
  }));

  test('sweep() keeps a driver whose stale report was refreshed', withIndex(async (index) => {
    index.upsertNow(fresh(1, bengaluru, 5 * 60_000));
    index.upsertNow(fresh(2, bengaluru, 4 * 60_000));
    index.upsertNow(fresh(1, bengaluru, 0));
    index.sweep(NOW);
    assert.equal(index.size, 1);
    assert.deepEqual(ids(await index.nearby(bengaluru, 1, 10, NOW)), [1]);
  }));

  test('a stale position that arrived after a fresher one is hidden at once and dropped within one TTL', withIndex(async (index) => {
    // Reports need not arrive in time order (bulk loading): driver 2's is old on arrival.
    index.upsertNow(fresh(1, bengaluru, 0));
    index.upsertNow(fresh(2, bengaluru, 5 * 60_000));
    index.sweep(NOW);
    assert.equal(await index.get(2, NOW), undefined);
    assert.deepEqual(ids(await index.nearby(bengaluru, 1, 10, NOW)), [1]);
    // The sweep stops at the first fresh entry; once that one ages out, the late stale one goes too.
    index.sweep(NOW + POSITION_TTL_MS);
    assert.equal(index.size, 0);
  }));

  test('an update moves the driver: the old place no longer finds it', withIndex(async (index) => {
    const mumbai = { lat: 19.076, lon: 72.8777 };
    index.upsertNow(fresh(1, bengaluru, 10_000));
    index.upsertNow(fresh(1, mumbai, 5_000));
    assert.deepEqual(await index.nearby(bengaluru, 50, 10, NOW), []);
    assert.deepEqual(ids(await index.nearby(mumbai, 1, 10, NOW)), [1]);
    assert.deepEqual(await index.get(1, NOW), fresh(1, mumbai, 5_000));
    assert.equal(index.size, 1);
    // A short move inside the same neighbourhood: the driver is listed once, at the new place.
    const near = destination(mumbai, 10, 0.3);
    index.upsertNow(fresh(1, near, 0));
    const found = await index.nearby(mumbai, 5, 10, NOW);
    assert.equal(found.length, 1);
    assert.equal(found[0].distanceKm, 0.3);
  }));

  test('an update older than the stored one is ignored; one with the same time wins', withIndex(async (index) => {
    const mumbai = { lat: 19.076, lon: 72.8777 };
    index.upsertNow(fresh(1, bengaluru, 10_000));
    index.upsertNow(fresh(1, mumbai, 20_000));
    assert.deepEqual(await index.get(1, NOW), fresh(1, bengaluru, 10_000));
    assert.deepEqual(ids(await index.nearby(bengaluru, 1, 10, NOW)), [1]);
    assert.deepEqual(await index.nearby(mumbai, 50, 10, NOW), []);
    // Two reports in the same millisecond: the later call is the newer report.
    await index.upsert(fresh(1, mumbai, 10_000));
    assert.deepEqual(await index.get(1, NOW), fresh(1, mumbai, 10_000));
  }));

  test('remove() takes the driver out of get and nearby', withIndex(async (index) => {
    index.upsertNow(fresh(1, bengaluru));
    index.upsertNow(fresh(2, destination(bengaluru, 0, 0.5)));
    await index.remove(1);
    await index.remove(99);
    assert.equal(await index.get(1, NOW), undefined);
    assert.deepEqual(ids(await index.nearby(bengaluru, 5, 10, NOW)), [2]);
    assert.equal(index.size, 1);
    // A driver can come back after going offline.
    await index.upsert(fresh(1, bengaluru));
    assert.deepEqual(ids(await index.nearby(bengaluru, 5, 10, NOW)), [1, 2]);
  }));

  test('the k nearest in the centre cell are found among many drivers farther out', withIndex(async (index) => {
    // Centre of a 0.02° grid cell; five drivers within 300 m, 5000 more between 1.5 and 40 km.
    const center = { lat: 12.97, lon: 77.59 };
    const random = mulberry32(3);
    const positions: DriverPosition[] = [];
    for (let i = 1; i <= 5; i++) positions.push(fresh(i, destination(center, i * 70, i * 0.05)));
    for (let i = 6; i <= 5005; i++) positions.push(fresh(i, destination(center, random() * 360, 1.5 + random() * 38.5)));
    for (const position of positions) index.upsertNow(position);
    const found = await index.nearby(center, 50, 5, NOW);
    assert.deepEqual(ids(found), [1, 2, 3, 4, 5]);
    assert.deepEqual(found.map((d) => d.distanceKm), [0.05, 0.1, 0.15, 0.2, 0.25]);
    for (const limit of [6, 20, 100]) assert.deepEqual(await index.nearby(center, 50, limit, NOW), bruteForce(positions, center, 50, limit, NOW));
  }));

  test('a driver just over the cell edge beats the drivers of the centre cell', withIndex(async (index) => {
    // The centre sits 50 m inside the north edge of its cell. Its cell-mates are 500–900 m south;
    // the nearest driver is 100 m north, in the next cell.
    const center = { lat: 12.98 - 0.05 / KM_PER_DEGREE, lon: 77.59 };
    for (let i = 1; i <= 5; i++) index.upsertNow(fresh(i, destination(center, 180, 0.4 + i * 0.1)));
    index.upsertNow(fresh(42, destination(center, 0, 0.1)));
    assert.deepEqual(ids(await index.nearby(center, 5, 3, NOW)), [42, 1, 2]);
    assert.deepEqual(ids(await index.nearby(center, 5, 1, NOW)), [42]);
  }));

  test('the search reaches across the antimeridian both ways', withIndex(async (index) => {
    index.upsertNow(fresh(1, { lat: -17.8, lon: 179.995 }));
    index.upsertNow(fresh(2, { lat: -17.8, lon: -179.995 }));
    const east = await index.nearby({ lat: -17.8, lon: -179.999 }, 2, 10, NOW);
    const west = await index.nearby({ lat: -17.8, lon: 179.999 }, 2, 10, NOW);
    assert.deepEqual(ids(east), [2, 1]);
    assert.deepEqual(ids(west), [1, 2]);
    assert.equal(east[1].distanceKm, round3(haversineKm({ lat: -17.8, lon: -179.999 }, { lat: -17.8, lon: 179.995 })));
  }));

  test('a driver at longitude exactly 180 is found from both sides', withIndex(async (index) => {
    // Longitude 180 is valid input (the API accepts −180…180) and the same meridian as −180.
    index.upsertNow(fresh(1, { lat: 10, lon: 180 }));
    for (const center of [{ lat: 9.999, lon: 179.999 }, { lat: 9.999, lon: -179.999 }, { lat: 10.001, lon: -179.999 }, { lat: 10.001, lon: 179.999 }]) {
      const found = await index.nearby(center, 1, 10, NOW);
      assert.deepEqual(ids(found), [1], `from ${JSON.stringify(center)}, ${haversineKm(center, { lat: 10, lon: 180 }).toFixed(3)} km away`);
    }
  }));

  test('near the pole, a driver on the far side of it is found', withIndex(async (index) => {
    // Both 1.1 km from the north pole, on opposite meridians: 2.2 km apart.
    index.upsertNow(fresh(1, { lat: 89.99, lon: 170 }));
    index.upsertNow(fresh(2, { lat: 90, lon: 0 }));
    const center = { lat: 89.99, lon: -10 };
    const found = await index.nearby(center, 5, 10, NOW);
    assert.deepEqual(ids(found), [2, 1]);
    assert.equal(found[1].distanceKm, round3(haversineKm(center, { lat: 89.99, lon: 170 })));
    assert.deepEqual(ids(await index.nearby({ lat: -89.995, lon: 45 }, 5, 10, NOW)), []);
    index.upsertNow(fresh(3, { lat: -89.995, lon: -135 }));
    assert.deepEqual(ids(await index.nearby({ lat: -89.995, lon: 45 }, 5, 10, NOW)), [3]);
  }));

  test('a driver is listed once when the search wraps all the way around near the pole', withIndex(async (index) => {
    // 33 km apart across the pole; a 40 km search there spans every column of the grid.
    index.upsertNow(fresh(1, { lat: 89.9, lon: -179.99 }));
    const found = await index.nearby({ lat: 89.8, lon: 0.001 }, 40, 10, NOW);
    assert.deepEqual(ids(found), [1]);
    assert.equal(found[0].distanceKm, round3(haversineKm({ lat: 89.8, lon: 0.001 }, { lat: 89.9, lon: -179.99 })));
  }));

  test('a driver just inside the radius, straight north, is found', withIndex(async (index) => {
    // 22 rows of 0.02° are 48.926 km; the centre sits 1 m below a row boundary and the driver is
    // 48.9275 km north (inside a 48.928 km radius), 23 rows up.
    const center = { lat: 10.02 - 0.001 / KM_PER_DEGREE, lon: 77 };
    const driver = destination(center, 0, 48.9275);
    index.upsertNow(fresh(1, driver));
    assert.ok(haversineKm(center, driver) <= 48.928);
    assert.deepEqual(ids(await index.nearby(center, 48.928, 10, NOW)), [1]);
  }));

  test('the nearest driver is returned when the runner-up is only slightly farther', withIndex(async (index) => {
    // Driver 1 is 22.2393 km north (11 rows up); driver 2 is 22.2396 km south (10 rows down).
    const center = { lat: -0.000001, lon: 30.01 };
    index.upsertNow(fresh(1, destination(center, 0, 22.2393)));
    index.upsertNow(fresh(2, destination(center, 180, 22.2396)));
    assert.deepEqual(ids(await index.nearby(center, 25, 2, NOW)), [1, 2]);
    assert.deepEqual(ids(await index.nearby(center, 25, 1, NOW)), [1]);
  }));

  test('close() empties the index', withIndex(async (index) => {
    index.upsertNow(fresh(1, bengaluru));
    await index.close();
    assert.equal(index.size, 0);
    assert.deepEqual(await index.nearby(bengaluru, 5, 10, NOW), []);
  }));
});

describe('MemoryDriverIndex: the work of a search follows the area searched, at any latitude', () => {
  // The cells of the searched circle widened by two cells all round, and half again: what a search
  // may look at, wherever it is. (On a grid of equal degrees, 50 km at latitude 89.99 took 1.6 million.)
  const mostCells = (radiusKm: number) => (1.5 * Math.PI * (radiusKm + 2 * CELL_KM) ** 2) / CELL_KM ** 2;
  const PLACES: Array<[string, Point]> = [
    ['latitude 0', { lat: 0, lon: 0 }],
    ['latitude 60', { lat: 60, lon: 10 }],
    ['latitude 89.99', { lat: 89.99, lon: 0 }],
    ['latitude −89.99', { lat: -89.99, lon: 0 }],
    ['longitude 180', { lat: 12, lon: 180 }],
    ['longitude −180', { lat: -40, lon: -180 }],
  ];

  /** Cells one search looks at. */
  async function cellsVisited(index: MemoryDriverIndex, center: Point, radiusKm: number, limit: number) {
    const before = index.visitedCells;
    const found = await index.nearby(center, radiusKm, limit, NOW);
    return { visited: index.visitedCells - before, found };
  }

  test('with nothing to find, every cell of the circle is looked at, and no more than its area holds', withIndex(async (index) => {
    // One driver far from every place searched: an index with nobody at all answers without a look.
    index.upsertNow(fresh(1, { lat: 30, lon: 100 }));
    for (const [name, center] of PLACES) {
      for (const radiusKm of [0.5, 5, 50]) {
        const { visited } = await cellsVisited(index, center, radiusKm, 100);
        assert.ok(visited > 0 && visited <= mostCells(radiusKm), `${name}, ${radiusKm} km: ${visited} cells (at most ${Math.floor(mostCells(radiusKm))})`);
      }
    }
  }));

  test('an index with no driver at all looks at no cell', withIndex(async (index) => {
    for (const [name, center] of PLACES) assert.deepEqual(await cellsVisited(index, center, 50, 10), { visited: 0, found: [] }, name);
  }));

  test('drivers around a pole and the antimeridian: exact answers within the same bound', withIndex(async (index) => {
    const random = mulberry32(89_99);
    const positions: DriverPosition[] = [];
    for (const [, center] of PLACES) {
      for (let i = 0; i < 300; i++) positions.push(fresh(positions.length + 1, destination(center, random() * 360, 60 * random())));
    }
    for (const position of positions) index.upsertNow(position);
    for (const [name, center] of PLACES) {
      for (const limit of [1, 10, 100]) {
        const { visited, found } = await cellsVisited(index, center, 50, limit);
        assert.deepEqual(found, bruteForce(positions, center, 50, limit, NOW), `${name}, limit ${limit}`);
        assert.ok(visited <= mostCells(50), `${name}, limit ${limit}: ${visited} cells`);
      }
    }
  }));

  test('in a busy city the ten nearest are found after a handful of cells, however wide the radius', withIndex(async (index) => {
    const random = mulberry32(15);
    const city = { lat: 19.076, lon: 72.8777 };
    for (let i = 1; i <= 5000; i++) index.upsertNow(fresh(i, destination(city, random() * 360, 15 * Math.sqrt(random()))));
    const { visited, found } = await cellsVisited(index, destination(city, 30, 3), 50, 10);
    assert.equal(found.length, 10);
    assert.ok(visited <= 25, `${visited} cells`);
  }));
});
