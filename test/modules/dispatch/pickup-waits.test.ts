import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { durationMinutes, roadDistanceKm } from '../../../src/modules/pricing/pricing.model.ts';
import { call, createTestApp, type TestApp } from '../../helpers/app.ts';
import { signUp } from '../../helpers/factories.ts';
import { driverAt, near, offerOf, PICKUP } from '../../helpers/dispatch.ts';
import { assertOk, bookRide } from '../../helpers/rides.ts';

// How soon a driver could come, per ride type, from the drivers actually available: one mini
// online makes the mini estimate that driver's way and leaves every other type without a promise.
// The offer names the same way as the rider's app: kilometres by road and the minutes they take.

describe('pickup waits per ride type, and one way to the pickup for driver and rider', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp({ dispatch: { mode: 'batched', batchMs: 60, offerTtlMs: 15_000, maxMs: 120_000 } });
  });
  after(() => t.close());

  const estimate = async (rideType: string, pickup: { lat: number; lon: number } = PICKUP) => {
    const reply = await call(t.app, 'GET', `/rides/estimate?rideType=${rideType}&pickupLat=${pickup.lat}&pickupLon=${pickup.lon}&dropLat=${pickup.lat + 0.05}&dropLon=${pickup.lon}`);
    assertOk(reply, `estimate ${rideType}`);
    return reply.body;
  };

  test('with one mini driver online, only mini (and no larger type) promises a driver; its wait is that driver\'s way', async () => {
    const at = near(PICKUP, 3);
    await driverAt(t, at, 'mini');
    const way = durationMinutes(roadDistanceKm(at, PICKUP));
    const mini = await estimate('mini');
    assert.equal(mini.driverNearby, true);
    assert.deepEqual([mini.etaMinMinutes, mini.etaMaxMinutes], [Math.max(1, way - 2), way + 3], `a ${way}-minute way`);
    for (const type of ['bike', 'auto', 'sedan', 'suv']) assert.equal((await estimate(type)).driverNearby, false, `${type}: nobody near who could take it`);
    // Far from every driver (beyond the widest search), nobody is near either.
    assert.equal((await estimate('mini', near(PICKUP, 30))).driverNearby, false);
    // Without a pickup point there is nothing to measure: the field is left out.
    const bare = await call(t.app, 'GET', '/rides/estimate?distanceKm=5&rideType=mini');
    assert.ok(!('driverNearby' in bare.body));
  });

  test("the offer's distance and minutes are the ones the rider's app computes from the same position", async () => {
    const pickup = near(PICKUP, 100);
    const at = near(pickup, 1.3);
    const driver = await driverAt(t, at, 'mini');
    const ride = await bookRide(t, await signUp(t), { pickupLat: pickup.lat, pickupLon: pickup.lon, dropLat: pickup.lat + 0.05, dropLon: pickup.lon });
    const offer = (await offerOf(t, driver, ride.id)) as unknown as { pickupDistanceKm: number; pickupEtaMinutes: number };
    const riderSees = roadDistanceKm(at, pickup);
    assert.equal(offer.pickupDistanceKm, riderSees);
    assert.equal(offer.pickupEtaMinutes, durationMinutes(riderSees));
  });
});
