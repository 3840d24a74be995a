import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { districtOf, zoneOf } from '../../../src/platform/geo/zones.ts';
import { LearnedDetours } from '../../../src/platform/routing/learned-detours.ts';
import { ROAD_FACTOR, StraightRouter } from '../../../src/platform/routing/straight-router.ts';

// The straight router's detour factor per place: the zone a trip starts in, else its district, else the city.

const HERE = { lat: 12.9716, lon: 77.5946 };
const NEXT_DOOR = { lat: 12.9826, lon: 77.5946 }; // 1.2 km north: another zone of the same district
const FAR = { lat: 13.3, lon: 77.2 }; // another district

describe('learned detour factors', () => {
  test('until anything is learned every trip takes ROAD_FACTOR', () => {
    const detours = new LearnedDetours();
    assert.equal(detours.factor(HERE, FAR), ROAD_FACTOR);
    assert.equal(new StraightRouter(detours.factor).routeNow(HERE, FAR).distanceKm, new StraightRouter().routeNow(HERE, FAR).distanceKm);
  });

  test("a trip takes its start zone's factor, else its district's, else the city's; replacing the factors forgets the old ones", () => {
    const zone = zoneOf(HERE);
    assert.notEqual(zoneOf(NEXT_DOOR), zone);
    assert.equal(districtOf(zoneOf(NEXT_DOOR)), districtOf(zone));
    assert.notEqual(districtOf(zoneOf(FAR)), districtOf(zone));
    const detours = new LearnedDetours();
    detours.replace({ city: 1.35, districts: new Map([[districtOf(zone), 1.5]]), zones: new Map([[zone, 1.8]]) });
    assert.deepEqual([detours.factor(HERE, FAR), detours.factor(NEXT_DOOR, HERE), detours.factor(FAR, HERE)], [1.8, 1.5, 1.35]);
    const router = new StraightRouter(detours.factor);
    assert.equal(router.routeNow(HERE, FAR).distanceKm, new StraightRouter(() => 1.8).routeNow(HERE, FAR).distanceKm);
    assert.deepEqual(router.tableNow([HERE, FAR], [NEXT_DOOR]).distancesKm, [[new StraightRouter(() => 1.8).routeNow(HERE, NEXT_DOOR).distanceKm], [new StraightRouter(() => 1.35).routeNow(FAR, NEXT_DOOR).distanceKm]]);
    detours.replace({ city: 1.4, districts: new Map(), zones: new Map() });
    assert.equal(detours.factor(HERE, FAR), 1.4);
  });
});
