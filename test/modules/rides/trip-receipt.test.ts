import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { receiptFigures, receiptMismatches } from '../../../src/modules/rides/ride-receipt.ts';
import { checkSignature } from '../../../src/platform/receipt-signing.ts';
import { call } from '../../helpers/app.ts';
import type { TestUser } from '../../helpers/factories.ts';
import { accept, assertOk, bookRide, northOf, setStatus, TRIP } from '../../helpers/rides.ts';
import type { OperatorApp } from '../admin/operator.ts';
import { lateEveningApp } from './late-evening.ts';

// Issue 28's "done when": a ride with waiting, a toll and a late-night drop is charged exactly what
// its receipt says, the receipt verifies with the public key, the same fare is recomputed from the
// public pricing version, and the driver's earnings carry the toll whole and their penalties.

const MINUTE = 60_000;

describe('the receipt of the trip that happened', () => {
  let op: OperatorApp;
  let rider: TestUser;
  let driver: TestUser;
  before(async () => {
    ({ op, rider, driver } = await lateEveningApp());
  });
  after(() => op.t.close());

  test('waiting, a toll and a night drop: charged what the receipt says, which verifies and recomputes; earnings pass the toll through and take the penalty', async () => {
    const { t } = op;
    const booked = await bookRide(t, rider, { rideType: 'mini' });
    assertOk(await accept(t, driver, booked.id));
    assertOk(await call(t.app, 'POST', `/rides/location/${booked.id}`, { token: driver.token, body: northOf({ lat: TRIP.pickupLat, lon: TRIP.pickupLon }, 60) }));
    t.clock.advance(10.5 * MINUTE);
    assertOk(await setStatus(t, driver, booked.id, { status: 'PICKED', otp: booked.startOtp }));
    assertOk(await call(t.app, 'POST', `/rides/${booked.id}/charges`, { token: driver.token, body: { kind: 'toll', amountInInr: 120, note: 'Outer ring road toll' } }));
    t.clock.advance(12 * MINUTE);
    const completed = await setStatus(t, driver, booked.id, { status: 'COMPLETED', otp: booked.endOtp });
    assertOk(completed);

    const { receipt, signature } = (await call(t.app, 'GET', `/rides/${booked.id}/receipt`, { token: rider.token })).body;
    assert.equal(receipt.fare, completed.body.fare);
    const parts = Object.fromEntries(receipt.breakdown.map((p: { part: string; amountInInr: number }) => [p.part, p.amountInInr]));
    assert.equal(parts.waiting, completed.body.fareBreakdown.waitingFare);
    assert.equal(parts.tolls, 120);
    assert.ok(parts.night > 0);
    assert.deepEqual([receipt.inputs.night, receipt.inputs.waitingMinutes, receipt.inputs.tollsInInr], [true, completed.body.fareBreakdown.waitingMinutes, 120]);
    const keys = (await call(t.app, 'GET', '/.well-known/receipt-keys')).body.keys;
    assert.equal(checkSignature(receipt, signature, keys).ok, true);
    const version = (await call(t.app, 'GET', `/pricing/versions/${receipt.pricingVersion}`)).body;
    assert.deepEqual(receiptMismatches(receipt, receiptFigures(receipt, version)), []);
    assert.equal(receipt.driverAmountInInr, Math.round(((receipt.fare - 120) * 0.85 + 120) * 100) / 100);

    // The driver cancels their next accepted ride without a valid reason: a penalty in their earnings.
    const next = await bookRide(t, rider, { rideType: 'mini' });
    assertOk(await accept(t, driver, next.id));
    const cancelled = await call(t.app, 'POST', `/rides/cancel/${next.id}`, { token: driver.token, body: { reason: 'Changed my mind' } });
    assertOk(cancelled);
    const earnings = (await call(t.app, 'GET', `/drivers/me/earnings?from=${new Date(t.clock.now() - 24 * 3_600_000).toISOString().slice(0, 10)}`, { token: driver.token })).body;
    const ride = earnings.rides.find((r: { rideId: number }) => r.rideId === booked.id);
    assert.deepEqual([ride.tollsAndParkingInInr, ride.driverAmountInInr], [120, receipt.driverAmountInInr]);
    assert.equal(earnings.penalties.length, 1);
    assert.equal(earnings.penalties[0].rideId, next.id);
    assert.equal(earnings.totals.penaltiesInInr, earnings.penalties[0].amountInInr);
    assert.equal(earnings.totals.netInInr, Math.round((earnings.totals.driverAmountInInr - earnings.totals.penaltiesInInr) * 100) / 100);
  });
});
