import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { distanceAndTimeFare, FIRST_RULES, inNightWindow, quoteFare, surgeWithin } from '../../../src/modules/pricing/pricing.model.ts';
import type { PricingRules, Rate } from '../../../src/modules/pricing/pricing.schemas.ts';

// Version 2 of the fare policy (decisions.md "Fare policy"): the arithmetic, as pure functions.

const KOLKATA = 'Asia/Kolkata';
/** A time of 28 Nov 2026 in Asia/Kolkata (UTC+05:30) as epoch milliseconds. */
const ist = (hour: number, minute = 0) => Date.UTC(2026, 10, 28, hour, minute) - 330 * 60_000;

const NIGHT = { start: '23:00', end: '05:00', multiplier: 1.25 };
const MINI: Rate = { base: 60, baseKm: 3, perKm: 14, perMinute: 2, minimum: 80, waiting: { freeMinutes: 3, perMinute: 2 }, night: NIGHT, perStop: 25 };
const V2: PricingRules = { ...FIRST_RULES, fares: { ...FIRST_RULES.fares, mini: MINI }, surgeFloor: 0.8, surgeCap: 2 };

describe('fare policy v2: the distance-and-time part', () => {
  test('the base covers baseKm: only the kilometres beyond it are charged per km', () => {
    // 10 km, 25 minutes: 60 + 14 × 7 + 2 × 25 = 208
    assert.deepEqual(distanceAndTimeFare(MINI, 10, 25, 1, 1), { baseFare: 60, baseKm: 3, distanceFare: 98, timeFare: 50, minimumApplied: false, distanceAndTimeFare: 208 });
    // Inside the base's kilometres nothing is charged per km, and never a negative amount.
    assert.equal(distanceAndTimeFare(MINI, 2, 5, 1, 1).distanceFare, 0);
  });

  test('the minimum replaces a smaller metered fare, and says so', () => {
    const part = distanceAndTimeFare(MINI, 1, 3, 1, 1);
    assert.equal(part.minimumApplied, true);
    assert.equal(part.distanceAndTimeFare, 80);
  });

  test('surge and the night multiplier both scale it, rounded once to the rupee', () => {
    // 208 × 1.5 × 1.25 = 390
    assert.equal(distanceAndTimeFare(MINI, 10, 25, 1.5, 1.25).distanceAndTimeFare, 390);
    // 80 × 1.3 × 1.25 = 130
    assert.equal(distanceAndTimeFare(MINI, 1, 3, 1.3, 1.25).distanceAndTimeFare, 130);
  });

  test("a zone's surge is held between the version's floor and cap", () => {
    assert.equal(surgeWithin(V2, 0.5), 0.8);
    assert.equal(surgeWithin(V2, 1.4), 1.4);
    assert.equal(surgeWithin(V2, 3), 2);
    // Version 1 never quoted below 1×.
    assert.equal(surgeWithin(FIRST_RULES, 0.5), 1);
  });
});

describe('fare policy v2: the night window', () => {
  test('a window past midnight covers the late evening and the early morning, in the service zone', () => {
    assert.equal(inNightWindow(ist(23, 0), KOLKATA, NIGHT), true);
    assert.equal(inNightWindow(ist(2, 30), KOLKATA, NIGHT), true);
    assert.equal(inNightWindow(ist(4, 59), KOLKATA, NIGHT), true);
    assert.equal(inNightWindow(ist(5, 0), KOLKATA, NIGHT), false);
    assert.equal(inNightWindow(ist(22, 59), KOLKATA, NIGHT), false);
    assert.equal(inNightWindow(ist(12, 0), KOLKATA, NIGHT), false);
    // 23:30 in Kolkata is 18:00 UTC: the zone decides, not UTC.
    assert.equal(inNightWindow(ist(23, 30), 'UTC', NIGHT), false);
  });

  test('a window within one day, and an empty one', () => {
    const evening = { start: '18:00', end: '21:00', multiplier: 1.1 };
    assert.equal(inNightWindow(ist(18, 0), KOLKATA, evening), true);
    assert.equal(inNightWindow(ist(21, 0), KOLKATA, evening), false);
    assert.equal(inNightWindow(ist(2, 0), KOLKATA, evening), false);
    assert.equal(inNightWindow(ist(2, 0), KOLKATA, { start: '00:00', end: '00:00', multiplier: 2 }), false);
  });

  test('a quote carries the night multiplier when the trip is expected to end in the window (now plus its driving time)', () => {
    const input = { distanceKm: 10, rideType: 'mini' as const, surgeMultiplier: 1, pickupEtaMinutes: 4, timeZone: KOLKATA };
    // 25 minutes of driving from 22:40 ends at 23:05, inside the window: 208 × 1.25 = 260.
    const late = quoteFare({ ...input, now: ist(22, 40) }, V2, 2);
    assert.deepEqual({ fare: late.fare, night: late.nightMultiplier }, { fare: 260, night: 1.25 });
    // From 22:30 it ends at 22:55, outside.
    const evening = quoteFare({ ...input, now: ist(22, 30) }, V2, 2);
    assert.deepEqual({ fare: evening.fare, night: evening.nightMultiplier }, { fare: 208, night: 1 });
  });
});

describe('fare policy v2: version 1 in the version-2 document', () => {
  test('quotes exactly what version 1 always quoted, by day and by night, for every ride type', () => {
    for (const [rideType, rate] of Object.entries(FIRST_RULES.fares) as [keyof PricingRules['fares'], Rate][]) {
      for (const distanceKm of [0, 0.4, 3, 7.77, 10, 42.5]) {
        for (const surgeMultiplier of [0.5, 1, 1.37, 3]) {
          for (const now of [ist(12), ist(23, 50)]) {
            const quote = quoteFare({ distanceKm, rideType, surgeMultiplier, pickupEtaMinutes: 4, now, timeZone: KOLKATA }, FIRST_RULES, 1);
            // Version 1's formula: round(max(minimum, base + perKm × km + perMinute × minutes) × min(2, max(1, surge))).
            const minutes = Math.ceil(Math.round((distanceKm / 24) * 60 * 1e6) / 1e6);
            const v1 = Math.round(Math.max(rate.minimum, rate.base + Math.round(rate.perKm * distanceKm * 100) / 100 + Math.round(rate.perMinute * minutes * 100) / 100) * Math.min(2, Math.max(1, surgeMultiplier)));
            assert.equal(quote.fare, v1, `${rideType} ${distanceKm} km ×${surgeMultiplier}`);
            assert.equal(quote.nightMultiplier, 1);
          }
        }
      }
    }
  });
});
