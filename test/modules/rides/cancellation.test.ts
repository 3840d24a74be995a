import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { call, type Reply, type TestApp } from '../../helpers/app.ts';
import { createTestAppWithAdmin, signUp, type TestUser } from '../../helpers/factories.ts';
import { accept, acceptedRide, assertError, assertOk, bookRide, driverWithVehicle, pickedRide, rideStatus, riderFee, setStatus, tripNorth, tripWithFare } from '../../helpers/rides.ts';

/**
 * Trips whose fares land below, inside and above both fee clamps, whatever the live surge (1–2×):
 * ACCEPTED 20 % within ₹20–₹60 and PICKED 40 % within ₹50–₹180. A bike without coordinates costs at
 * most ₹60, a 30 km SUV ride well over ₹450; the middle one is picked from a live quote of ₹130–₹290.
 */
const TRIPS = {
  cheap: { rideType: 'bike', pickupLocation: 'A', dropLocation: 'B' },
  expensive: { rideType: 'suv', ...tripNorth(30) },
} as const;
type TripKind = 'cheap' | 'middle' | 'expensive';

const RULES = { ACCEPTED: { share: 0.2, min: 20, max: 60 }, PICKED: { share: 0.4, min: 50, max: 180 } } as const;

/** Proves the trip really exercises the clamp it is meant to. */
function assertClampCase(kind: TripKind, state: 'ACCEPTED' | 'PICKED', fare: number): void {
  const rule = RULES[state];
  const raw = Math.round(fare * rule.share);
  if (kind === 'cheap') assert.ok(raw < rule.min, `fare ${fare} should fall under the ${state} minimum`);
  if (kind === 'middle') assert.ok(raw > rule.min && raw < rule.max, `fare ${fare} should fall inside the ${state} range`);
  if (kind === 'expensive') assert.ok(raw > rule.max, `fare ${fare} should exceed the ${state} maximum`);
}

function assertCancelled(reply: Reply, expected: { by: string; fee: number | null; reason: string; driverId: number | null }): void {
  assertOk(reply, 'cancel');
  const ride = reply.body;
  assert.equal(ride.status, 'CANCELLED');
  assert.equal(ride.cancelledBy, expected.by);
  assert.equal(ride.cancellationFee, expected.fee);
  assert.equal(ride.cancellationReason, expected.reason);
  assert.equal(ride.driverId, expected.driverId);
  for (const key of ['id', 'riderId', 'fare', 'pickupLocation', 'dropLocation', 'createdAt']) assert.ok(key in ride, `the cancel response carries ${key}`);
  assert.ok(!('startOtp' in ride) && !('endOtp' in ride), 'the cancel response carries no codes');
}

describe('cancellation', () => {
  let t: TestApp;
  let admin: TestUser;
  before(async () => {
    ({ t, admin } = await createTestAppWithAdmin());
  });
  after(() => t.close());

  const trip = async (kind: TripKind): Promise<Record<string, unknown>> => (kind === 'middle' ? tripWithFare(t, 'mini', 130, 290) : TRIPS[kind]);
  /** The same person driving a bike for the cheap trip and an SUV (which takes mini rides too) for the others. */
  const drivers = async () => {
    const bike = await driverWithVehicle(t, 'bike');
    const suv = await driverWithVehicle(t, 'suv');
    return (kind: TripKind) => (kind === 'cheap' ? bike : suv);
  };

  const cancel = (who: TestUser, rideId: number, reason?: string) =>
    call(t.app, 'POST', `/rides/cancel/${rideId}`, { token: who.token, ...(reason === undefined ? {} : { body: { reason } }) });

  test('a rider cancelling a REQUESTED ride pays nothing, and the ride leaves the open list', async () => {
    const rider = await signUp(t);
    for (const kind of ['cheap', 'expensive'] as const) {
      const booked = await bookRide(t, rider, await trip(kind));
      const reply = await cancel(rider, booked.id, 'found another way');
      assertCancelled(reply, { by: 'rider', fee: null, reason: 'found another way', driverId: null });
      assert.equal(reply.body.fare, booked.fare);
      const open = await call(t.app, 'GET', '/rides/requested?limit=200');
      assert.ok(!open.body.some((r: { id: number }) => r.id === booked.id));
    }
  });

  test('a rider cancelling an ACCEPTED ride pays 20 % of the fare, at least ₹20 and at most ₹60', async () => {
    const rider = await signUp(t);
    const driverFor = await drivers();
    const fees: number[] = [];
    for (const kind of ['cheap', 'middle', 'expensive'] as const) {
      const driver = driverFor(kind);
      const { booked } = await acceptedRide(t, rider, driver, await trip(kind));
      assertClampCase(kind, 'ACCEPTED', booked.fare);
      const reply = await cancel(rider, booked.id, `cancel ${kind}`);
      assertCancelled(reply, { by: 'rider', fee: riderFee('ACCEPTED', booked.fare), reason: `cancel ${kind}`, driverId: driver.id });
      fees.push(reply.body.cancellationFee);
    }
    assert.equal(fees[0], 20);
    assert.ok(fees[1] > 20 && fees[1] < 60);
    assert.equal(fees[2], 60);
  });

  test('a rider cancelling a PICKED ride pays 40 % of the fare, at least ₹50 and at most ₹180', async () => {
    const rider = await signUp(t);
    const driverFor = await drivers();
    const fees: number[] = [];
    for (const kind of ['cheap', 'middle', 'expensive'] as const) {
      const driver = driverFor(kind);
      const { booked } = await pickedRide(t, rider, driver, await trip(kind));
      assertClampCase(kind, 'PICKED', booked.fare);
      const reply = await cancel(rider, booked.id);
      assertCancelled(reply, { by: 'rider', fee: riderFee('PICKED', booked.fare), reason: '', driverId: driver.id });
      fees.push(reply.body.cancellationFee);
    }
    assert.equal(fees[0], 50);
    assert.ok(fees[1] > 50 && fees[1] < 180);
    assert.equal(fees[2], 180);
  });

  test("a driver's or an admin's cancellation charges the rider nothing, in any state", async () => {
    const rider = await signUp(t);
    const driver = await driverWithVehicle(t, 'suv');
    for (const [who, by] of [[driver, 'driver'], [admin, 'admin']] as const) {
      const accepted = await acceptedRide(t, rider, driver, TRIPS.expensive);
      assertCancelled(await cancel(who, accepted.booked.id, 'car trouble'), { by, fee: null, reason: 'car trouble', driverId: driver.id });
      const picked = await pickedRide(t, rider, driver, TRIPS.expensive);
      assertCancelled(await cancel(who, picked.booked.id), { by, fee: null, reason: '', driverId: driver.id });
    }
    const requested = await bookRide(t, rider, TRIPS.expensive);
    assertCancelled(await cancel(admin, requested.id, 'duplicate'), { by: 'admin', fee: null, reason: 'duplicate', driverId: null });
  });

  test('POST /rides/status with CANCELLED follows the same rule', async () => {
    const rider = await signUp(t);
    const driverFor = await drivers();
    const driver = driverFor('expensive');

    const requested = await bookRide(t, rider, await trip('middle'));
    assertCancelled(await setStatus(t, rider, requested.id, { status: 'CANCELLED' }), { by: 'rider', fee: null, reason: '', driverId: null });

    for (const kind of ['cheap', 'middle', 'expensive'] as const) {
      const driver = driverFor(kind);
      const accepted = await acceptedRide(t, rider, driver, await trip(kind));
      assertCancelled(await setStatus(t, rider, accepted.booked.id, { status: 'CANCELLED' }), {
        by: 'rider',
        fee: riderFee('ACCEPTED', accepted.booked.fare),
        reason: '',
        driverId: driver.id,
      });
      const picked = await pickedRide(t, rider, driver, await trip(kind));
      assertCancelled(await setStatus(t, rider, picked.booked.id, { status: 'CANCELLED' }), {
        by: 'rider',
        fee: riderFee('PICKED', picked.booked.fare),
        reason: '',
        driverId: driver.id,
      });
    }
    const byDriver = await pickedRide(t, rider, driver, TRIPS.expensive);
    assertCancelled(await setStatus(t, driver, byDriver.booked.id, { status: 'CANCELLED' }), { by: 'driver', fee: null, reason: '', driverId: driver.id });
    const byAdmin = await acceptedRide(t, rider, driver, TRIPS.expensive);
    assertCancelled(await setStatus(t, admin, byAdmin.booked.id, { status: 'CANCELLED' }), { by: 'admin', fee: null, reason: '', driverId: driver.id });
  });

  test('an omitted reason is stored as an empty string, whatever the body looks like', async () => {
    const rider = await signUp(t);
    const variants: Array<[string, { body?: unknown; headers?: Record<string, string> }]> = [
      ['no body at all', {}],
      ['an empty object', { body: {} }],
      ['a JSON content type with an empty body', { body: '', headers: { 'content-type': 'application/json' } }],
      ['a null reason', { body: { reason: null } }],
    ];
    for (const [what, options] of variants) {
      const booked = await bookRide(t, rider);
      const reply = await call(t.app, 'POST', `/rides/cancel/${booked.id}`, { token: rider.token, ...options });
      assertOk(reply, what);
      assert.equal(reply.body.cancellationReason, '', what);
      assert.equal(reply.body.status, 'CANCELLED', what);
      const stored = (await call(t.app, 'GET', '/rides/history', { token: rider.token })).body.find((r: { id: number }) => r.id === booked.id);
      assert.equal(stored.cancellationReason, '', `${what}: stored`);
    }
  });

  test('the cancellation is visible in both parties\' history', async () => {
    const rider = await signUp(t);
    const driver = await signUp(t, { role: 'DRIVER' });
    const { booked } = await pickedRide(t, rider, driver, await trip('middle'));
    const reply = await cancel(rider, booked.id, 'feeling unwell');
    assertOk(reply);
    for (const party of [rider, driver]) {
      const ride = (await call(t.app, 'GET', '/rides/history', { token: party.token })).body.find((r: { id: number }) => r.id === booked.id);
      assert.ok(ride, `in the ${party.role}'s history`);
      assert.equal(ride.status, 'CANCELLED');
      assert.equal(ride.cancelledBy, 'rider');
      assert.equal(ride.cancellationReason, 'feeling unwell');
      assert.equal(ride.cancellationFee, riderFee('PICKED', booked.fare));
    }
    assert.equal((await rideStatus(t, booked.id)).status, 'CANCELLED');
  });

  test('a driver whose active ride is cancelled can accept another ride', async () => {
    const rider = await signUp(t);
    const driver = await signUp(t, { role: 'DRIVER' });
    const cancellers: Array<[TestUser, 'cancel' | 'status']> = [[rider, 'cancel'], [driver, 'cancel'], [admin, 'status'], [driver, 'status']];
    for (const [who, path] of cancellers) {
      const { booked } = await pickedRide(t, rider, driver);
      const next = await bookRide(t, rider);
      assertError(await accept(t, driver, next.id), 409, 'DRIVER_BUSY');
      assertOk(path === 'cancel' ? await cancel(who, booked.id) : await setStatus(t, who, booked.id, { status: 'CANCELLED' }));
      const reply = await accept(t, driver, next.id);
      assertOk(reply, `after a cancellation by ${who.role} via ${path}`);
      assert.equal(reply.body.driverId, driver.id);
      assertOk(await cancel(driver, next.id));
    }
  });

  test('a cancelled ride cannot be cancelled again and keeps its first cancellation', async () => {
    const rider = await signUp(t);
    const driver = await signUp(t, { role: 'DRIVER' });
    const { booked } = await acceptedRide(t, rider, driver, await trip('middle'));
    assertOk(await cancel(driver, booked.id, 'first'));
    assertError(await cancel(rider, booked.id, 'second'), 409);
    assertError(await setStatus(t, rider, booked.id, { status: 'CANCELLED' }), 409);
    const ride = (await call(t.app, 'GET', '/rides/history', { token: rider.token })).body.find((r: { id: number }) => r.id === booked.id);
    assert.equal(ride.cancelledBy, 'driver');
    assert.equal(ride.cancellationReason, 'first');
    assert.equal(ride.cancellationFee, null);
  });

  test('each party is told beforehand exactly the fee their cancellation then charges; strangers and finished rides are refused', async () => {
    const rider = await signUp(t);
    const driver = await signUp(t, { role: 'DRIVER' });
    const stranger = await signUp(t);
    const quote = (who: TestUser, rideId: number) => call(t.app, 'GET', `/rides/cancel/${rideId}`, { token: who.token });
    const { booked } = await pickedRide(t, rider, driver, await trip('middle'));
    const byDriver = await quote(driver, booked.id);
    assertOk(byDriver);
    assert.deepEqual(byDriver.body, { rideId: booked.id, status: 'PICKED', cancelledBy: 'driver', cancellationFee: null });
    const byRider = await quote(rider, booked.id);
    assertOk(byRider);
    assert.equal(byRider.body.cancelledBy, 'rider');
    assert.equal(typeof byRider.body.cancellationFee, 'number');
    assertError(await quote(stranger, booked.id), 403);
    assertError(await call(t.app, 'GET', '/rides/cancel/999999'), 401);
    assertError(await quote(rider, 999_999_999_999), 404);
    const cancelled = await cancel(rider, booked.id);
    assertCancelled(cancelled, { by: 'rider', fee: byRider.body.cancellationFee, reason: '', driverId: driver.id });
    assertError(await quote(rider, booked.id), 409);
  });
});
