import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { FIRST_RULES } from '../../../src/modules/pricing/pricing.model.ts';
import type { PricingRules } from '../../../src/modules/pricing/pricing.schemas.ts';
import { chargedWaitingMinutes, tripFare, type TripFacts } from '../../../src/modules/pricing/trip-fare.ts';

// The fare of the trip that happened, as a pure function.

const MINI = { base: 60, baseKm: 3, perKm: 14, perMinute: 2, minimum: 80, waiting: { freeMinutes: 3, perMinute: 1.5 }, night: { start: '23:00', end: '05:00', multiplier: 1.5 }, perStop: 25 };
const RULES: PricingRules = { ...FIRST_RULES, fares: { ...FIRST_RULES.fares, mini: MINI }, tollsAndParking: { capPerRide: 500 } };
/** 28 Nov 2026 in Asia/Kolkata. */
const ist = (hour: number, minute = 0) => Date.UTC(2026, 10, 28, hour, minute) - 330 * 60_000;
// 10 km, 25 minutes upfront: 60 + 14 × 7 + 2 × 25 = 208.
const FACTS: TripFacts = {
  rideType: 'mini',
  pricingVersion: 4,
  upfront: { distanceKm: 10, durationMinutes: 25, surgeMultiplier: 1, fare: 208 },
  trip: { distanceKm: 10.4, minutes: 27 },
  waitedMinutes: 0,
  stops: 0,
  stopWaitedMinutes: [],
  charges: [],
  dropAt: ist(12),
  timeZone: 'Asia/Kolkata',
  tolerance: 0.2,
};

describe('tripFare', () => {
  test('waiting is charged per started minute beyond the free ones', () => {
    assert.deepEqual([0, 3, 3.01, 4, 10.5].map((waited) => chargedWaitingMinutes(waited, 3)), [0, 0, 1, 1, 8]);
  });

  test('a trip close to its quote pays the upfront part; waiting, stops, tolls and parking go on top, and the parts add up', () => {
    const charges = [
      { kind: 'toll' as const, amountInInr: 120, note: 'NH 44', addedAt: '2026-11-28T06:40:00.000Z' },
      { kind: 'parking' as const, amountInInr: 30, note: 'Airport', addedAt: '2026-11-28T06:50:00.000Z' },
    ];
    const b = tripFare({ ...FACTS, waitedMinutes: 10.5, stops: 1, charges }, RULES);
    assert.deepEqual(
      [b.distanceAndTimeFare, b.waitingMinutes, b.waitingFare, b.stopsFare, b.tollsFare, b.parkingFare, b.recomputed, b.recomputeReason],
      [208, 8, 12, 25, 120, 30, false, null],
    );
    assert.equal(b.fare, 208 + 12 + 25 + 120 + 30);
    assert.deepEqual([b.distanceKm, b.durationMinutes, b.tripDistanceKm, b.tripMinutes, b.upfrontFare], [10, 25, 10.4, 27, 208]);
  });

  test('waiting at each stop has the free minutes too, and is charged with the waiting at the pickup', () => {
    // Pickup: 4 min (1 charged); stops: 2.5 (none), 7.2 (5), 3 (none).
    const b = tripFare({ ...FACTS, waitedMinutes: 4, stops: 3, stopWaitedMinutes: [2.5, 7.2, 3] }, RULES);
    assert.deepEqual([b.waitingMinutes, b.stopWaitingMinutes, b.waitingFare, b.stopsFare], [6, 5, 6 * MINI.waiting.perMinute, 3 * MINI.perStop]);
    assert.equal(b.fare, 208 + 6 * MINI.waiting.perMinute + 3 * MINI.perStop);
  });

  test('after a destination change the confirmed route is the upfront part, with the reason, unless the trip exceeded it too', () => {
    const changed = { ...FACTS, destinationReason: 'the rider changed the destination to the airport' };
    const b = tripFare(changed, RULES);
    assert.deepEqual([b.recomputed, b.recomputeReason, b.distanceAndTimeFare, b.upfrontFare], [true, 'the rider changed the destination to the airport', 208, 208]);
    const beyond = tripFare({ ...changed, trip: { distanceKm: 14, minutes: 30 } }, RULES);
    assert.deepEqual([beyond.recomputed, beyond.distanceAndTimeFare], [true, 274]);
    assert.match(beyond.recomputeReason!, /exceeded the upfront distance and time/);
  });

  test('the night window is decided on the drop time', () => {
    const b = tripFare({ ...FACTS, dropAt: ist(23, 10) }, RULES);
    assert.deepEqual([b.night, b.nightMultiplier, b.fare], [true, 1.5, 312]);
  });

  test('a trip whose own distance-and-time part exceeds the upfront one by more than the tolerance is recomputed, with the reason', () => {
    // 14 km, 30 minutes: 60 + 14 × 11 + 2 × 30 = 274 > 208 × 1.2
    const b = tripFare({ ...FACTS, trip: { distanceKm: 14, minutes: 30 } }, RULES);
    assert.deepEqual([b.recomputed, b.distanceAndTimeFare, b.fare, b.distanceKm, b.durationMinutes], [true, 274, 274, 14, 30]);
    assert.match(b.recomputeReason!, /exceeded the upfront distance and time \(10 km, 25 min: ₹208\) by more than 20 %/);
    // Just within: 12 km, 25 minutes is 60 + 126 + 50 = 236 ≤ 249.6.
    assert.equal(tripFare({ ...FACTS, trip: { distanceKm: 12, minutes: 25 } }, RULES).recomputed, false);
    // A shorter trip never lowers the upfront part.
    assert.equal(tripFare({ ...FACTS, trip: { distanceKm: 2, minutes: 5 } }, RULES).fare, 208);
  });

  test('under version 1 a trip close to its quote costs exactly the quote', () => {
    const b = tripFare({ ...FACTS, upfront: { ...FACTS.upfront, fare: 220 }, waitedMinutes: 9, dropAt: ist(23, 30) }, FIRST_RULES);
    // mini, version 1: 50 + 12 × 10 + 2 × 25 = 220, no waiting charge, no night multiplier.
    assert.deepEqual([b.fare, b.waitingFare, b.nightMultiplier], [220, 0, 1]);
  });
});
