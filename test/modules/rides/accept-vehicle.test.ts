import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { call, type TestApp } from '../../helpers/app.ts';
import { createTestAppWithAdmin, signUp, type TestUser } from '../../helpers/factories.ts';
import { driverAt, offerOf, PICKUP } from '../../helpers/dispatch.ts';
import { accept, assertError, assertOk, bookRide, driverWithVehicle, setStatus } from '../../helpers/rides.ts';

// decisions.md "Realtime and input limits (second review)": accepting checks the vehicle on every
// path. A driver's profile must serve the ride type (vehicles.ts SERVES); a driver without a
// profile is the contract's plain DRIVER and takes the default `mini` rides only, and nothing when
// approval is required.

describe('the vehicle in the accept rule', () => {
  let t: TestApp;
  let admin: TestUser;
  before(async () => {
    ({ t, admin } = await createTestAppWithAdmin({ dispatch: { mode: 'nearest', batchMs: 60, offerTtlMs: 15_000, maxMs: 120_000 } }));
  });
  after(() => t.close());

  test('a bike driver accepting an SUV ride with POST /rides/status is refused and gets no start code; a bike ride is theirs', async () => {
    const rider = await signUp(t);
    const bike = await driverWithVehicle(t, 'bike');
    const suvRide = await bookRide(t, rider, { rideType: 'suv' });
    const refused = await accept(t, bike, suvRide.id);
    assertError(refused, 403, 'VEHICLE_MISMATCH');
    assert.ok(!JSON.stringify(refused.body).includes(suvRide.startOtp), 'no start code');
    assert.equal((await call(t.app, 'GET', `/rides/status/${suvRide.id}`)).body.status, 'REQUESTED');
    assertOk(await accept(t, bike, (await bookRide(t, rider, { rideType: 'bike' })).id), 'a bike ride');
  });

  test('a driver without a profile takes mini rides only', async () => {
    const rider = await signUp(t);
    const plain = await signUp(t, { role: 'DRIVER' });
    for (const rideType of ['suv', 'sedan', 'auto', 'bike']) {
      assertError(await accept(t, plain, (await bookRide(t, rider, { rideType })).id), 403, 'VEHICLE_MISMATCH');
    }
    assertOk(await accept(t, plain, (await bookRide(t, rider, { rideType: 'mini' })).id), 'a mini ride, as the contract has it');
  });

  test('an SUV serves smaller car rides; an operator cannot accept for a driver whose vehicle does not serve the ride', async () => {
    const rider = await signUp(t);
    const suv = await driverWithVehicle(t, 'suv');
    const sedanRide = await bookRide(t, rider, { rideType: 'sedan' });
    const bike = await driverWithVehicle(t, 'bike');
    assertError(await setStatus(t, admin, sedanRide.id, { status: 'ACCEPTED', driverId: bike.id }), 403, 'VEHICLE_MISMATCH');
    assertOk(await setStatus(t, admin, sedanRide.id, { status: 'ACCEPTED', driverId: suv.id }), 'an SUV driver, for a sedan ride');
  });

  test('an offer accepted after the driver changed to a vehicle that does not serve the ride is refused', async () => {
    const pickup = { lat: PICKUP.lat - 1, lon: PICKUP.lon };
    const driver = await driverAt(t, pickup, 'suv');
    const rider = await signUp(t);
    const ride = await bookRide(t, rider, { rideType: 'suv', pickupLat: pickup.lat, pickupLon: pickup.lon, dropLat: pickup.lat + 0.05, dropLon: pickup.lon });
    const offer = await offerOf(t, driver, ride.id);
    assertOk(await call(t.app, 'PUT', '/drivers/me/profile', { token: driver.token, body: { vehicleType: 'bike', vehicleNumber: 'KA01ZZ0001' } }), 'a bike now');
    assertError(await call(t.app, 'POST', `/drivers/me/offers/${offer.offerId}/accept`, { token: driver.token }), 403, 'VEHICLE_MISMATCH');
  });
});

describe('the vehicle in the accept rule, when approval is required', () => {
  let t: TestApp;
  let admin: TestUser;
  before(async () => {
    ({ t, admin } = await createTestAppWithAdmin({ driverApprovalRequired: true }));
  });
  after(() => t.close());

  test('a driver without a profile takes nothing; an approved sedan takes mini but not SUV rides', async () => {
    const rider = await signUp(t);
    const plain = await signUp(t, { role: 'DRIVER' });
    assertError(await accept(t, plain, (await bookRide(t, rider)).id), 403, 'DRIVER_NOT_APPROVED');
    const sedan = await driverWithVehicle(t, 'sedan');
    assertOk(await call(t.app, 'POST', `/admin/drivers/${sedan.id}/approve`, { token: admin.token }), 'approve');
    assertError(await accept(t, sedan, (await bookRide(t, rider, { rideType: 'suv' })).id), 403, 'VEHICLE_MISMATCH');
    assertOk(await accept(t, sedan, (await bookRide(t, rider, { rideType: 'mini' })).id), 'a mini ride');
  });
});
