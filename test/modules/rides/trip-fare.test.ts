import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { call } from '../../helpers/app.ts';
import type { TestUser } from '../../helpers/factories.ts';
import { accept, assertError, assertOk, bookRide, northOf, setStatus, TRIP } from '../../helpers/rides.ts';
import type { OperatorApp } from '../admin/operator.ts';
import { lateEveningApp, MINI } from './late-evening.ts';

// The trip that happened (decisions.md "Fare policy"): waiting from the driver's arrival, tolls and
// parking while PICKED, the night window on the drop time, and the upfront distance-and-time part
// unless the trip exceeded it beyond FARE_RECOMPUTE_TOLERANCE (0.2 by default).

const MINUTE = 60_000;

/** The distance-and-time part of a mini trip under RULES. */
const part = (km: number, minutes: number, surge: number, night: number) => Math.round(Math.max(MINI.minimum, MINI.base + Math.round(MINI.perKm * Math.max(0, km - MINI.baseKm) * 100) / 100 + MINI.perMinute * minutes) * surge * night);

describe('the fare of the trip that happened', () => {
  let op: OperatorApp;
  let rider: TestUser;
  let driver: TestUser;
  before(async () => {
    ({ op, rider, driver } = await lateEveningApp());
  });
  after(() => op.t.close());

  const report = (rideId: number, point: { lat: number; lon: number }) => call(op.t.app, 'POST', `/rides/location/${rideId}`, { token: driver.token, body: point });
  const charge = (rideId: number, body: unknown, user = driver) => call(op.t.app, 'POST', `/rides/${rideId}/charges`, { token: user.token, body });

  test('a ride with waiting, a toll and a late-night drop is charged exactly the sum of its parts, and the rider sees the toll at once', async () => {
    const { t } = op;
    const booked = await bookRide(t, rider, { rideType: 'mini' });
    assertOk(await accept(t, driver, booked.id));
    assertError(await charge(booked.id, { kind: 'toll', amountInInr: 50, note: 'too early' }), 409, 'RIDE_NOT_PICKED');
    // Arrived within 100 m of the pickup, then 10.5 minutes until the rider is on board: 3 free, 8 started minutes charged.
    assertOk(await report(booked.id, northOf({ lat: TRIP.pickupLat, lon: TRIP.pickupLon }, 60)));
    const arrived = await call(t.app, 'GET', `/rides/status/${booked.id}`, { token: rider.token });
    assert.equal(arrived.body.arrivedAt, new Date(t.clock.now()).toISOString(), 'the rider sees when the driver arrived');
    t.clock.advance(10.5 * MINUTE);
    assertOk(await setStatus(t, driver, booked.id, { status: 'PICKED', otp: booked.startOtp }));

    const tolled = await charge(booked.id, { kind: 'toll', amountInInr: 120, note: 'Outer ring road toll' });
    assertOk(tolled);
    assert.deepEqual(tolled.body.charges.map((c: { kind: string; amountInInr: number; note: string }) => [c.kind, c.amountInInr, c.note]), [['toll', 120, 'Outer ring road toll']]);
    const seen = await call(t.app, 'GET', `/rides/status/${booked.id}`, { token: rider.token });
    assert.equal(seen.body.charges[0].amountInInr, 120, 'the rider sees the toll');
    assertError(await charge(booked.id, { kind: 'parking', amountInInr: 200, note: 'over the cap' }), 409, 'CHARGES_CAP_REACHED');
    assertError(await charge(booked.id, { kind: 'parking', amountInInr: 20, note: 'not the driver' }, rider), 403);
    assertError(await charge(booked.id, { kind: 'fuel', amountInInr: 20 }), 400);

    t.clock.advance(12 * MINUTE); // dropped at about 23:07
    const completed = await setStatus(t, driver, booked.id, { status: 'COMPLETED', otp: booked.endOtp });
    assertOk(completed);
    const ride = completed.body;
    const b = ride.fareBreakdown;
    const dAT = part(booked.distanceKm, booked.durationMinutes, booked.surgeMultiplier, 1.5);
    assert.deepEqual(
      { night: b.night, nightMultiplier: b.nightMultiplier, waitingMinutes: b.waitingMinutes, waitingFare: b.waitingFare, tollsFare: b.tollsFare, parkingFare: b.parkingFare, recomputed: b.recomputed, reason: b.recomputeReason, dAT: b.distanceAndTimeFare },
      { night: true, nightMultiplier: 1.5, waitingMinutes: 8, waitingFare: 16, tollsFare: 120, parkingFare: 0, recomputed: false, reason: null, dAT },
    );
    assert.equal(ride.fare, dAT + 16 + 120);
    assert.equal(ride.fare, b.distanceAndTimeFare + b.stopsFare + b.waitingFare + b.tollsFare + b.parkingFare, 'the fare is the sum of its parts');
    assert.equal(b.fare, ride.fare);
    assert.deepEqual([ride.upfrontFare, b.upfrontFare], [booked.fare, booked.fare]);
    assertError(await charge(booked.id, { kind: 'parking', amountInInr: 10, note: 'after the drop' }), 409, 'RIDE_NOT_PICKED');
  });

  test("within the tolerance the upfront distance-and-time part holds, whatever the positions add", async () => {
    const { t } = op;
    const booked = await bookRide(t, rider, { rideType: 'mini' });
    assertOk(await accept(t, driver, booked.id));
    assertOk(await setStatus(t, driver, booked.id, { status: 'PICKED', otp: booked.startOtp }));
    // Along the way: a little north of the straight line, then the drop.
    const mid = { lat: (TRIP.pickupLat + TRIP.dropLat) / 2 + 0.002, lon: (TRIP.pickupLon + TRIP.dropLon) / 2 };
    assertOk(await report(booked.id, mid));
    assertOk(await report(booked.id, { lat: TRIP.dropLat, lon: TRIP.dropLon }));
    t.clock.advance(booked.durationMinutes * MINUTE);
    const ride = (await setStatus(t, driver, booked.id, { status: 'COMPLETED', otp: booked.endOtp })).body;
    const b = ride.fareBreakdown;
    assert.equal(b.recomputed, false);
    assert.ok(b.tripDistanceKm > booked.distanceKm * 0.8 && b.tripDistanceKm <= booked.distanceKm * 1.2, `trip ${b.tripDistanceKm} km, upfront ${booked.distanceKm} km`);
    assert.deepEqual([b.distanceKm, b.durationMinutes], [booked.distanceKm, booked.durationMinutes]);
    assert.equal(ride.fare, b.distanceAndTimeFare);
    assert.equal(b.distanceAndTimeFare, part(booked.distanceKm, booked.durationMinutes, booked.surgeMultiplier, b.nightMultiplier));
  });

  test('beyond the tolerance it is recomputed from the trip, and says why', async () => {
    const { t } = op;
    const booked = await bookRide(t, rider, { rideType: 'mini' });
    assertOk(await accept(t, driver, booked.id));
    assertOk(await setStatus(t, driver, booked.id, { status: 'PICKED', otp: booked.startOtp }));
    // Sent round a closed road: 4 km north first.
    const detour = northOf({ lat: TRIP.pickupLat, lon: TRIP.pickupLon }, 4000);
    assertOk(await report(booked.id, detour));
    assertOk(await report(booked.id, { lat: TRIP.dropLat, lon: TRIP.dropLon }));
    t.clock.advance((booked.durationMinutes + 10) * MINUTE);
    const ride = (await setStatus(t, driver, booked.id, { status: 'COMPLETED', otp: booked.endOtp })).body;
    const b = ride.fareBreakdown;
    assert.equal(b.recomputed, true);
    assert.match(b.recomputeReason, /exceeded the upfront distance and time .* by more than 20 %/);
    assert.deepEqual([b.distanceKm, b.durationMinutes], [b.tripDistanceKm, booked.durationMinutes + 10]);
    assert.ok(b.tripDistanceKm > booked.distanceKm * 1.2);
    assert.equal(b.distanceAndTimeFare, part(b.tripDistanceKm, b.durationMinutes, booked.surgeMultiplier, b.nightMultiplier));
    assert.equal(ride.fare, b.distanceAndTimeFare);
    assert.ok(ride.fare > ride.upfrontFare);
  });

  test("a driver who cancels an accepted ride owes the version's penalty, unless the reason is a valid one", async () => {
    const { t } = op;
    const first = await bookRide(t, rider, { rideType: 'mini' });
    assertOk(await accept(t, driver, first.id));
    const cancelled = await call(t.app, 'POST', `/rides/cancel/${first.id}`, { token: driver.token, body: { reason: 'Running late' } });
    assertOk(cancelled);
    assert.deepEqual([cancelled.body.driverPenalty, cancelled.body.cancellationFee], [Math.min(100, Math.round(first.fare * 0.1)), null]);
    const second = await bookRide(t, rider, { rideType: 'mini' });
    assertOk(await accept(t, driver, second.id));
    const excused = await call(t.app, 'POST', `/rides/cancel/${second.id}`, { token: driver.token, body: { reason: 'Vehicle breakdown' } });
    assertOk(excused);
    assert.equal(excused.body.driverPenalty, null);
  });
  test('a toll added while the ride completes is either in the fare it completes with or refused, never shown and left out', async () => {
    const { t } = op;
    for (let round = 0; round < 8; round++) {
      const booked = await bookRide(t, rider, { rideType: 'mini' });
      assertOk(await accept(t, driver, booked.id));
      assertOk(await setStatus(t, driver, booked.id, { status: 'PICKED', otp: booked.startOtp }));
      const [tolled, completed] = await Promise.all([
        charge(booked.id, { kind: 'toll', amountInInr: 10, note: `race ${round}` }),
        setStatus(t, driver, booked.id, { status: 'COMPLETED', otp: booked.endOtp }),
      ]);
      assertOk(completed);
      const ride = (await call(t.app, 'GET', `/rides/status/${booked.id}`, { token: rider.token })).body;
      if (tolled.status === 200) {
        assert.equal(ride.fareBreakdown.tollsFare, 10, `round ${round}: the toll the driver was told was added is paid`);
      } else {
        assertError(tolled, 409, 'RIDE_NOT_PICKED');
        assert.equal(ride.fareBreakdown.tollsFare, 0);
      }
      assert.equal(ride.charges.length, ride.fareBreakdown.tollsFare / 10, `round ${round}: the charges shown are the ones charged`);
      assert.equal(ride.fare, ride.fareBreakdown.distanceAndTimeFare + ride.fareBreakdown.stopsFare + ride.fareBreakdown.waitingFare + ride.fareBreakdown.tollsFare + ride.fareBreakdown.parkingFare);
    }
  });
});
