import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { CELL_KM, CircleCells, cellOf } from '../../../src/platform/geo/circle-cells.ts';
import { haversineKm, type Point } from '../../../src/platform/geo/geo.ts';
import { destination, mulberry32 } from '../../helpers/geo.ts';

/** Every ring of a circle, in order, as the search sees them. */
function rings(center: Point, radiusKm: number): number[][] {
  const circle = new CircleCells();
  circle.reset(center, radiusKm);
  const found: number[][] = [];
  for (let ring = 0, count = circle.ring(0); count >= 0; count = circle.ring(++ring)) found.push([...circle.cells.subarray(0, count)]);
  return found;
}

const PLACES: Array<[string, Point]> = [
  ['the equator', { lat: 0, lon: 0 }],
  ['Bengaluru', { lat: 12.9716, lon: 77.5946 }],
  ['latitude 60', { lat: 60, lon: 10 }],
  ['near the north pole', { lat: 89.99, lon: 0 }],
  ['near the south pole', { lat: -89.99, lon: -45 }],
  ['the north pole', { lat: 90, lon: 0 }],
  ['longitude 180', { lat: 0, lon: 180 }],
  ['longitude −180', { lat: -33, lon: -180 }],
  ['beside the antimeridian at 65°', { lat: 65.5, lon: 179.998 }],
];

describe('CircleCells: the cells a circle covers', () => {
  const random = mulberry32(11_2026);

  for (const [name, center] of PLACES) {
    test(`${name}: every point of the circle lies in a cell of some ring, and no cell comes twice`, () => {
      for (const radiusKm of [0.05, 1.3, 7, 50]) {
        const cells = rings(center, radiusKm).flat();
        const covered = new Set(cells);
        assert.equal(covered.size, cells.length, `${radiusKm} km: a cell listed twice`);
        for (let i = 0; i < 3000; i++) {
          // Inside, and on the rim, where cells are easiest to miss.
          const point = destination(center, random() * 360, i % 3 === 0 ? radiusKm : radiusKm * Math.sqrt(random()));
          assert.ok(covered.has(cellOf(point.lat, point.lon)), `${radiusKm} km: ${JSON.stringify(point)} not covered`);
        }
      }
    });
  }

  test('a search told that everything beyond a ring is farther than some distance is never misled', () => {
    for (const [name, center] of PLACES) {
      const radiusKm = 30;
      const circle = new CircleCells();
      circle.reset(center, radiusKm);
      const ringOf = new Map<number, number>();
      for (let ring = 0, count = circle.ring(0); count >= 0; count = circle.ring(++ring)) {
        for (const cell of circle.cells.subarray(0, count)) ringOf.set(cell, ring);
      }
      for (let i = 0; i < 3000; i++) {
        const point = destination(center, random() * 360, radiusKm * Math.sqrt(random()));
        const ring = ringOf.get(cellOf(point.lat, point.lon))!;
        const km = haversineKm(center, point);
        for (let earlier = 0; earlier < ring; earlier++) {
          assert.ok(!circle.fartherBeyond(earlier, km), `${name}: a point ${km} km away in ring ${ring}, yet all beyond ring ${earlier} was said to be farther`);
        }
      }
    }
  });

  test('cell keys fit 32 bits, the pole belongs to the row around it, and longitude 180 is −180', () => {
    assert.ok(cellOf(90, 179.9999) < 2 ** 31);
    assert.equal(cellOf(90, 179.9999), cellOf(89.995, 179.9999));
    assert.equal(cellOf(10, 180), cellOf(10, -180));
    assert.ok(CELL_KM > 1.11 && CELL_KM < 1.12);
  });
});
