import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { localWeekMinute, startOfLocalDay, toIso } from '../../src/platform/clock.ts';

const start = (at: string, zone: string) => new Date(startOfLocalDay(Date.parse(at), zone)).toISOString();

describe('startOfLocalDay', () => {
  test('local midnight of the day the instant falls on in the zone', () => {
    assert.equal(start('2026-11-25T20:00:00Z', 'Asia/Kolkata'), '2026-11-25T18:30:00.000Z', 'already the 26th in Kolkata');
    assert.equal(start('2026-11-25T18:29:59.999Z', 'Asia/Kolkata'), '2026-11-24T18:30:00.000Z', 'still the 25th');
    assert.equal(start('2026-11-25T00:00:00Z', 'UTC'), '2026-11-25T00:00:00.000Z');
    assert.equal(start('2026-11-25T23:59:59.999Z', 'UTC'), '2026-11-25T00:00:00.000Z');
  });

  test('on a day whose offset changes, midnight has the offset it had then', () => {
    // New York: clocks go forward at 02:00 on 8 March 2026 and back at 02:00 on 1 November 2026.
    assert.equal(start('2026-03-08T20:00:00Z', 'America/New_York'), '2026-03-08T05:00:00.000Z');
    assert.equal(start('2026-11-01T20:00:00Z', 'America/New_York'), '2026-11-01T04:00:00.000Z');
  });
});

describe('localWeekMinute', () => {
  test('local weekday and minute of the day, the same however often and in whatever order zones are asked', () => {
    // Sunday 23:59:59.999 in Bengaluru is Sunday 18:29 in UTC; a millisecond later Bengaluru is on Monday.
    const lastOfSunday = Date.parse('2026-11-29T23:59:59.999+05:30');
    assert.deepEqual(pick(localWeekMinute(lastOfSunday, 'Asia/Kolkata')), { weekday: 6, minuteOfDay: 23 * 60 + 59 });
    assert.deepEqual(pick(localWeekMinute(lastOfSunday, 'UTC')), { weekday: 6, minuteOfDay: 18 * 60 + 29 });
    assert.deepEqual(pick(localWeekMinute(lastOfSunday + 1, 'Asia/Kolkata')), { weekday: 0, minuteOfDay: 0 });
    assert.deepEqual(pick(localWeekMinute(lastOfSunday, 'Asia/Kolkata')), { weekday: 6, minuteOfDay: 23 * 60 + 59 }, 'back to the minute before');
    // A daylight-saving change: 01:59 then 03:00 in New York on 2026-03-08.
    const spring = Date.parse('2026-03-08T06:59:00Z');
    assert.deepEqual(pick(localWeekMinute(spring, 'America/New_York')), { weekday: 6, minuteOfDay: 60 + 59 });
    assert.deepEqual(pick(localWeekMinute(spring + 60_000, 'America/New_York')), { weekday: 6, minuteOfDay: 3 * 60 });
  });
});

const pick = ({ weekday, minuteOfDay }: { weekday: number; minuteOfDay: number }) => ({ weekday, minuteOfDay });

describe('toIso', () => {
  test('writes what toISOString writes, for instants in one second, across seconds and back', () => {
    const base = Date.parse('2026-11-28T18:45:12.000Z');
    const instants = [base, base + 7, base + 42, base + 999, base + 1000, base + 1005, base - 1, base + 3, 0, 999, 86_399_999, base + 86_400_000, base + 1];
    for (const ms of instants) assert.equal(toIso(ms), new Date(ms).toISOString(), String(ms));
  });

  test('values outside whole milliseconds of 1970–9999 keep toISOString’s text or its error', () => {
    for (const ms of [1.5, -1, -1.5, -62_198_755_200_000, 253_402_300_799_999, 253_402_300_800_000, 8.64e15]) assert.equal(toIso(ms), new Date(ms).toISOString(), String(ms));
    for (const ms of [Number.NaN, Infinity, 8.64e15 + 1]) assert.throws(() => toIso(ms), RangeError);
  });
});
