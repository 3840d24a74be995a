import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { call, type TestApp } from '../../helpers/app.ts';
import { signUp, type TestUser } from '../../helpers/factories.ts';
import { acceptedRide, assertError, assertOk, northOf, TRIP } from '../../helpers/rides.ts';
import { operatorApp, type OperatorApp } from './operator.ts';

/** A driver at a point, with a vehicle profile (pending approval) unless told otherwise, approved when asked. */
async function driverAt(op: OperatorApp, point: { lat: number; lon: number }, { profile = true, approved = false } = {}): Promise<TestUser> {
  const { t, admin } = op;
  const driver = await signUp(t, { role: 'DRIVER' });
  if (profile) assertOk(await call(t.app, 'PUT', '/drivers/me/profile', { token: driver.token, body: { vehicleType: 'mini', vehicleNumber: `KA01LV${String(driver.id).padStart(4, '0')}` } }));
  if (approved) assertOk(await call(t.app, 'POST', `/admin/drivers/${driver.id}/approve`, { token: admin.token }));
  assertOk(await call(t.app, 'PUT', '/drivers/me/location', { token: driver.token, body: point }));
  return driver;
}

const live = (t: TestApp, admin: TestUser, query: string) => call(t.app, 'GET', `/admin/drivers/live?${query}`, { token: admin.token });

describe('operator API: the live map of drivers', () => {
  let op: OperatorApp;
  before(async () => {
    op = await operatorApp({ driverApprovalRequired: true });
  });
  after(() => op.t.close());

  test('drivers around a point, nearest first, each busy, available or not cleared for offers; none beyond the radius', async () => {
    const { t, admin } = op;
    const centre = { lat: TRIP.pickupLat, lon: TRIP.pickupLon };
    const available = await driverAt(op, northOf(centre, 300), { approved: true });
    const busy = await driverAt(op, northOf(centre, 600), { approved: true });
    await acceptedRide(t, await signUp(t), busy);
    const pending = await driverAt(op, northOf(centre, 900));
    const withoutVehicle = await driverAt(op, northOf(centre, 1200), { profile: false });
    const far = await driverAt(op, northOf(centre, 20_000), { approved: true });

    const reply = await live(t, admin, `lat=${centre.lat}&lon=${centre.lon}&radiusKm=5`);
    assertOk(reply);
    assert.equal(reply.body.complete, true);
    assert.deepEqual(
      reply.body.drivers.map(({ driverId, name, state }: { driverId: number; name: string; state: string }) => ({ driverId, name, state })),
      [
        { driverId: available.id, name: available.name, state: 'available' },
        { driverId: busy.id, name: busy.name, state: 'busy' },
        { driverId: pending.id, name: pending.name, state: 'not_cleared' },
        { driverId: withoutVehicle.id, name: withoutVehicle.name, state: 'not_cleared' },
      ],
    );
    assert.ok(!reply.body.drivers.some((driver: { driverId: number }) => driver.driverId === far.id));
    const [first] = reply.body.drivers;
    assert.ok(Math.abs(first.distanceKm - 0.3) < 0.01, `distance ${first.distanceKm}`);
    assert.ok(Math.abs(first.lat - northOf(centre, 300).lat) < 1e-9);

    // The driver going offline leaves the map.
    assertOk(await call(t.app, 'DELETE', '/drivers/me/location', { token: available.token }));
    const after = await live(t, admin, `lat=${centre.lat}&lon=${centre.lon}&radiusKm=5`);
    assert.ok(!after.body.drivers.some((driver: { driverId: number }) => driver.driverId === available.id));
  });

  test('the limit keeps the nearest drivers and says the list was cut', async () => {
    const { t, admin } = op;
    // Away from the other test's drivers.
    const centre = { lat: 13.1986, lon: 77.7066 };
    const drivers = [];
    for (const metres of [100, 200, 300]) drivers.push(await driverAt(op, northOf(centre, metres)));
    const cut = await live(t, admin, `lat=${centre.lat}&lon=${centre.lon}&radiusKm=2&limit=2`);
    assertOk(cut);
    assert.deepEqual(cut.body.drivers.map((driver: { driverId: number }) => driver.driverId), [drivers[0].id, drivers[1].id]);
    assert.equal(cut.body.complete, false);
    const whole = await live(t, admin, `lat=${centre.lat}&lon=${centre.lon}&radiusKm=2&limit=3`);
    assert.deepEqual(whole.body.drivers.map((driver: { driverId: number }) => driver.driverId), drivers.map((driver) => driver.id));
    assert.equal(whole.body.complete, true);
  });

  test('a point is required, and the area and the list are bounded', async () => {
    const { t, admin } = op;
    assertError(await live(t, admin, 'radiusKm=5'), 400, 'VALIDATION_FAILED');
    assertError(await live(t, admin, 'lat=12.97&lon=77.59&radiusKm=51'), 400, 'VALIDATION_FAILED');
    assertError(await live(t, admin, 'lat=12.97&lon=77.59&limit=1001'), 400, 'VALIDATION_FAILED');
    assertError(await live(t, admin, 'lat=91&lon=77.59'), 400, 'VALIDATION_FAILED');
  });

  test('only operators see it', async () => {
    const { t } = op;
    const driver = await signUp(t, { role: 'DRIVER' });
    assertError(await live(t, driver, 'lat=12.97&lon=77.59'), 403);
    assertError(await call(t.app, 'GET', '/admin/drivers/live?lat=12.97&lon=77.59'), 401);
  });
});
