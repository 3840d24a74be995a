import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { haversineKm } from '../../../src/platform/geo/geo.ts';
import { CITY_SPEED_KMH, ROAD_FACTOR, StraightRouter } from '../../../src/platform/routing/straight-router.ts';

const MG_ROAD = { lat: 12.9716, lon: 77.5946 };
const KORAMANGALA = { lat: 12.9352, lon: 77.6245 };
const INDIRANAGAR = { lat: 12.9784, lon: 77.6408 };

describe('the straight provider', () => {
  test('the great circle × the road factor, to 10 m, at city speed', async () => {
    const route = await new StraightRouter().route(MG_ROAD, KORAMANGALA, [], { geometry: true });
    const km = Math.round(haversineKm(MG_ROAD, KORAMANGALA) * ROAD_FACTOR * 100) / 100;
    assert.equal(route.distanceKm, km);
    assert.equal(route.durationMinutes, (km / CITY_SPEED_KMH) * 60);
    assert.equal(route.provider, 'straight');
    assert.deepEqual(route.geometry, [MG_ROAD, KORAMANGALA]);
  });

  test('stops add their legs; a table holds the same legs', async () => {
    const router = new StraightRouter();
    const [first, second] = [await router.route(MG_ROAD, KORAMANGALA), await router.route(KORAMANGALA, INDIRANAGAR)];
    const through = await router.route(MG_ROAD, INDIRANAGAR, [KORAMANGALA]);
    assert.equal(through.distanceKm, Math.round((first.distanceKm + second.distanceKm) * 100) / 100);
    const table = await router.table([MG_ROAD, KORAMANGALA], [KORAMANGALA, INDIRANAGAR]);
    assert.deepEqual(table.distancesKm, [[first.distanceKm, (await router.route(MG_ROAD, INDIRANAGAR)).distanceKm], [0, second.distanceKm]]);
    assert.equal(table.durationsMinutes[0][0], first.durationMinutes);
  });

  test('the detour factor is a parameter (a factor per zone plugs in here)', async () => {
    const north = (from: { lat: number }) => (from.lat > 12.95 ? 1.5 : 1.1);
    const router = new StraightRouter(north);
    assert.equal((await router.route(MG_ROAD, KORAMANGALA)).distanceKm, Math.round(haversineKm(MG_ROAD, KORAMANGALA) * 1.5 * 100) / 100);
    assert.equal((await router.route(KORAMANGALA, MG_ROAD)).distanceKm, Math.round(haversineKm(MG_ROAD, KORAMANGALA) * 1.1 * 100) / 100);
  });
});
