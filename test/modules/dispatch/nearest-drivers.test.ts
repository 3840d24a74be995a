import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { NearestDrivers } from '../../../src/modules/dispatch/nearest-drivers.ts';
import type { DriverPosition } from '../../../src/platform/geo/driver-index.ts';
import { bruteForce, destination, mulberry32, NOW } from '../../helpers/geo.ts';

// The dispatch round's search: the k nearest drivers within a radius, as every location index
// answers it (nearest first, ties by id, distances to the metre), checked against brute force.

const around = (next: () => number, center: { lat: number; lon: number }, count: number, maxKm: number, firstId = 1): DriverPosition[] =>
  Array.from({ length: count }, (_, i) => ({ driverId: firstId + i, ...destination(center, next() * 360, maxKm * Math.sqrt(next())), updatedAt: NOW }));

const withoutExcluded = (positions: DriverPosition[], excluded: ReadonlySet<number>) => positions.filter((p) => !excluded.has(p.driverId));

describe('nearest drivers (the k-d tree a dispatch round searches)', () => {
  test('answers exactly as brute force in a crowded city, for any radius, k and excluded drivers', () => {
    const next = mulberry32(15);
    const city = { lat: 12.9716, lon: 77.5946 };
    const positions = [...around(next, city, 3_000, 3), ...around(next, city, 1_000, 20, 3_001)];
    const tree = new NearestDrivers(positions);
    for (let i = 0; i < 400; i++) {
      const center = destination(city, next() * 360, 25 * next());
      const radiusKm = [0.5, 2, 5, 8, 30][i % 5];
      const k = 1 + Math.floor(next() * 12);
      const excluded = new Set(Array.from({ length: Math.floor(next() * 4) }, () => 1 + Math.floor(next() * 4_000)));
      assert.deepEqual(tree.nearest(center, radiusKm, k, excluded), bruteForce(withoutExcluded(positions, excluded), center, radiusKm, k, NOW), `query ${i}`);
    }
  });

  test('needs no projection: across the ±180° meridian and next to the poles', () => {
    const next = mulberry32(16);
    for (const center of [{ lat: -17.7, lon: 179.95 }, { lat: 89.9, lon: 10 }, { lat: -89.95, lon: -120 }, { lat: 64.1, lon: -21.9 }]) {
      const positions = around(next, center, 500, 40);
      const tree = new NearestDrivers(positions);
      for (const radiusKm of [1, 10, 50]) {
        for (const k of [1, 8, 30]) assert.deepEqual(tree.nearest(center, radiusKm, k), bruteForce(positions, center, radiusKm, k, NOW), `${JSON.stringify(center)} r=${radiusKm} k=${k}`);
      }
    }
  });

  test('drivers at the same point come by id; nobody beyond the radius; nothing from an empty set', () => {
    const spot = { lat: 12.97, lon: 77.59 };
    const tree = new NearestDrivers([9, 4, 7, 5].map((driverId) => ({ driverId, ...spot, updatedAt: NOW })));
    assert.deepEqual(tree.nearest(spot, 1, 3).map((d) => d.driverId), [4, 5, 7]);
    assert.deepEqual(tree.nearest(destination(spot, 0, 2), 1.9, 3), []);
    assert.deepEqual(tree.nearest(spot, 1, 0), []);
    assert.deepEqual(new NearestDrivers([]).nearest(spot, 8, 8), []);
  });
});
