import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ETA_REFRESH_MS, ETA_REROUTE_KM, headingOf, RideEtas } from '../../../src/modules/rides/ride-etas.ts';
import type { RideSnapshot } from '../../../src/modules/rides/rides.repository.ts';
import type { Point } from '../../../src/platform/geo/geo.ts';
import type { Route } from '../../../src/platform/routing/router.ts';
import { StraightRouter } from '../../../src/platform/routing/straight-router.ts';
import { TestClock } from '../../helpers/app.ts';

// The ETA a rider hears with each position: routed by the service's router, again at most every
// ETA_REFRESH_MS, counting down in between, and at once when the ride moves from pickup to drop.

const PICKUP = { lat: 12.97, lon: 77.59 };
const DROP = { lat: 13.03, lon: 77.62 };
const STOP = { lat: 13.0, lon: 77.65 };

function ride(status: string, stops: unknown[] = []): RideSnapshot {
  return {
    id: 1, status, rider_id: 2, driver_id: 3, fare: 200, created_at: 0, accepted_at: 0, driver_lat: null, driver_lon: null,
    driver_location_updated_at: null, pickup_lat: PICKUP.lat, pickup_lon: PICKUP.lon, drop_lat: DROP.lat, drop_lon: DROP.lon,
    arriving_notified_at: null, stops: JSON.stringify(stops),
  };
}

/** The real straight router, with the routes it was asked for written down. */
class CountingRouter extends StraightRouter {
  readonly asked: Array<{ from: Point; to: Point; via: readonly Point[] }> = [];
  override route(from: Point, to: Point, via: readonly Point[] = []): Promise<Route> {
    this.asked.push({ from, to, via });
    return super.route(from, to, via);
  }
}

const minutesOf = async (from: Point, to: Point, via: Point[] = []) => Math.ceil((await new StraightRouter().route(from, to, via)).durationMinutes);

describe('ride ETAs', () => {
  test('while ACCEPTED: the route to the pickup, counted down while the driver stays near where it was routed', async () => {
    const clock = new TestClock();
    const router = new CountingRouter();
    const etas = new RideEtas({ router, clock });
    const far = { lat: 12.87, lon: 77.59 };
    const nudged = { lat: 12.871, lon: 77.59 }; // about 110 m on
    assert.equal(await etas.of(ride('ACCEPTED'), far), await minutesOf(far, PICKUP));
    const first = (await new StraightRouter().route(far, PICKUP)).durationMinutes;

    clock.advance(ETA_REFRESH_MS - 1_000);
    assert.equal(await etas.of(ride('ACCEPTED'), nudged), Math.ceil(first - (ETA_REFRESH_MS - 1_000) / 60_000), 'counted down, not routed');
    assert.equal(router.asked.length, 1);

    clock.advance(1_000);
    assert.equal(await etas.of(ride('ACCEPTED'), nudged), await minutesOf(nudged, PICKUP), 'routed again once ETA_REFRESH_MS passed');
    assert.deepEqual(router.asked.at(-1), { from: nudged, to: PICKUP, via: [] });
  });

  test(`routed again at once when the driver moved ${ETA_REROUTE_KM} km from where it was routed`, async () => {
    const clock = new TestClock();
    const router = new CountingRouter();
    const etas = new RideEtas({ router, clock });
    await etas.of(ride('ACCEPTED'), { lat: 12.87, lon: 77.59 });
    const near = { lat: 12.95, lon: 77.59 };
    clock.advance(1_000);
    assert.equal(await etas.of(ride('ACCEPTED'), near), await minutesOf(near, PICKUP));
    assert.equal(router.asked.length, 2);
  });

  test('once PICKED: routed at once to the drop, through the stops not reached yet', async () => {
    const clock = new TestClock();
    const router = new CountingRouter();
    const etas = new RideEtas({ router, clock });
    await etas.of(ride('ACCEPTED'), PICKUP);
    const stops = [{ lat: 12.98, lon: 77.6, place: null, reachedAt: 5, leftAt: 6 }, { ...STOP, place: null, reachedAt: null, leftAt: null }];
    assert.equal(await etas.of(ride('PICKED', stops), PICKUP), await minutesOf(PICKUP, DROP, [STOP]));
    assert.deepEqual(router.asked.at(-1), { from: PICKUP, to: DROP, via: [STOP] });
  });

  test('never below one minute, and nothing for a ride that is headed nowhere', async () => {
    const clock = new TestClock();
    const etas = new RideEtas({ router: new StraightRouter(), clock });
    assert.equal(await etas.of(ride('ACCEPTED'), PICKUP), 1);
    assert.equal(await etas.of(ride('COMPLETED'), PICKUP), null);
    assert.equal(headingOf({ ...ride('ACCEPTED'), pickup_lat: null }), null);
  });
});
