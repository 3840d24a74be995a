import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { cityRules } from '../../simulator/city-pricing.ts';
import { nightOnServiceClock } from '../../simulator/night.ts';
import type { PricingVersion } from '../../simulator/api-types.ts';

const MINUTE = 60_000;
const NIGHT = { start: '23:00', end: '05:00' };
// 14:00 in Bengaluru (08:30 UTC).
const AFTERNOON_IN_BENGALURU = Date.UTC(2026, 10, 28, 8, 30);
const ZONE = 'Asia/Kolkata';

describe('the simulated night on the service clock', () => {
  test('a run at 20× from 22:00: the night starts 60 simulated minutes in (3 wall-clock minutes) and lasts 6 simulated hours (18 minutes)', () => {
    const moved = nightOnServiceClock(NIGHT, { startedAt: AFTERNOON_IN_BENGALURU, startMinute: 22 * 60, speed: 20 }, 0, ZONE);
    assert.deepEqual(moved, { window: { start: '14:03', end: '14:21' }, endsAtSimMs: 7 * 60 * MINUTE });
  });

  test('a run starting inside the night gets the night under way, and after it the next one', () => {
    const timeline = { startedAt: AFTERNOON_IN_BENGALURU, startMinute: 30, speed: 60 };
    // 00:30: the night began 90 simulated minutes (1.5 wall-clock minutes) ago and ends in 270 (4.5).
    const now = nightOnServiceClock(NIGHT, timeline, 0, ZONE);
    assert.deepEqual(now, { window: { start: '13:59', end: '14:05' }, endsAtSimMs: 270 * MINUTE });
    // From 05:00 on, the next night: 23:00 is 1350 simulated minutes after 00:30, 22.5 wall-clock minutes.
    const next = nightOnServiceClock(NIGHT, timeline, 270 * MINUTE, ZONE);
    assert.deepEqual(next, { window: { start: '14:23', end: '14:29' }, endsAtSimMs: (1350 + 360) * MINUTE });
  });

  test("the window is written in the service's zone, and one crossing the wall clock's midnight wraps", () => {
    const nearMidnightUtc = Date.UTC(2026, 10, 28, 23, 50);
    const moved = nightOnServiceClock(NIGHT, { startedAt: nearMidnightUtc, startMinute: 23 * 60, speed: 30 }, 0, 'UTC');
    assert.deepEqual(moved?.window, { start: '23:50', end: '00:02' });
    assert.equal(nightOnServiceClock(NIGHT, { startedAt: nearMidnightUtc, startMinute: 23 * 60, speed: 30 }, 0, ZONE)?.window.start, '05:20');
  });

  test('no window when the night is empty, or shorter than a wall-clock minute at this speed', () => {
    const timeline = { startedAt: AFTERNOON_IN_BENGALURU, startMinute: 22 * 60, speed: 20 };
    assert.equal(nightOnServiceClock({ start: '23:00', end: '23:00' }, timeline, 0, ZONE), null);
    assert.equal(nightOnServiceClock({ start: '23:00', end: '23:10' }, { ...timeline, speed: 600 }, 0, ZONE), null);
  });
});

describe("the simulated city's pricing", () => {
  const rate = { base: 30, baseKm: 3, perKm: 12, perMinute: 1, minimum: 40, waiting: { freeMinutes: 3, perMinute: 1 }, night: { ...NIGHT, multiplier: 1 }, perStop: 10 };
  const found = {
    version: 4,
    fares: { bike: rate, auto: rate, mini: rate, sedan: { ...rate, night: { start: '22:00', end: '06:00', multiplier: 1.5 } }, suv: rate },
    surgeFloor: 1,
    surgeCap: 2,
    driverShare: 0.8,
    tollsAndParking: { capPerRide: 0 },
    cancellation: { ACCEPTED: { share: 0.1, min: 0, max: 100 }, PICKED: { share: 0.1, min: 0, max: 100 } },
    driverCancellation: { share: 0.1, min: 0, max: 100 },
    validCancellationReasons: ['rider unreachable'],
    compliance: 'IN-MVAG-2025',
    createdAt: '2026-11-28T08:00:00.000Z',
    createdBy: null,
  } satisfies PricingVersion;

  test('keeps the version in force, passes tolls and parking through, charges the night and moves each type\'s window', () => {
    const { rules, nightEnds } = cityRules(found, { startedAt: AFTERNOON_IN_BENGALURU, startMinute: 22 * 60, speed: 20 }, 0, ZONE);
    assert.equal(rules.tollsAndParking.capPerRide, 500);
    assert.deepEqual(rules.fares.mini.night, { start: '14:03', end: '14:21', multiplier: 1.25 });
    // The sedan's own window (22:00 to 06:00, under way at the start) and its own, higher, multiplier.
    assert.deepEqual(rules.fares.sedan.night, { start: '14:00', end: '14:24', multiplier: 1.5 });
    assert.equal(nightEnds, 7 * 60 * MINUTE, 'the earliest night to end');
    assert.deepEqual({ ...rules.fares.mini, night: rate.night }, rate, 'the rest of the rate as found');
    assert.deepEqual(
      [rules.surgeFloor, rules.surgeCap, rules.driverShare, rules.cancellation, rules.driverCancellation, rules.validCancellationReasons, rules.compliance],
      [found.surgeFloor, found.surgeCap, found.driverShare, found.cancellation, found.driverCancellation, found.validCancellationReasons, found.compliance],
    );
    assert.equal('version' in rules || 'createdAt' in rules, false, 'a version\'s own fields are not sent back');
  });
});
