import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  confidenceFor,
  forecast,
  hourlyProfile,
  localHour,
  MODEL,
  MODEL_CONSTANTS,
  peakWindow,
  surgeFor,
  type DemandInput,
} from '../../../src/modules/insights/insights.model.ts';

// Unit tests of demand-heuristics-v1 on hand-built histories. Expected numbers are worked out by
// hand from the documented constants (written out below), never by calling the model twice.

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const KOLKATA = 'Asia/Kolkata'; // UTC+05:30 all year
const NEW_YORK = 'America/New_York';

/** Σ 0.9^age over the 14 days of the look-back: the denominator of the per-day average. */
const TOTAL_WEIGHT = (1 - 0.9 ** 14) / (1 - 0.9);

/** An instant at local wall-clock time in Kolkata on 2026-03-18 (plus `dayOffset` days). */
const kolkata = (hour: number, minute = 0, dayOffset = 0) => Date.UTC(2026, 2, 18 + dayOffset, hour, minute) - 330 * MINUTE;

/** The fixed "now" of most tests: Wednesday 2026-03-18 07:45 in Kolkata (02:15 UTC). */
const NOW = kolkata(7, 45);

type Bucket = { start: number; count: number };

/**
 * `perDay` rides at local HH:MM (Kolkata) on each of the 14 most recent days, at ages 0..13
 * (age = whole days between the bucket and NOW), so that hour's profile value is exactly `perDay`.
 */
function daily(hour: number, perDay: number, minute = 0, now = NOW): Bucket[] {
  let start = kolkata(hour, minute);
  while (start > now) start -= DAY;
  return Array.from({ length: 14 }, (_, age) => ({ start: start - age * DAY, count: perDay }));
}

/** By default each rider booked once (demand = rides) and holds one open request. */
function input(overrides: Partial<DemandInput> = {}): DemandInput {
  const buckets = overrides.buckets ?? [];
  return {
    now: NOW,
    timeZone: KOLKATA,
    buckets,
    sampleSize: buckets.reduce((sum, bucket) => sum + bucket.count, 0),
    recentDemand: 0,
    openRequests: overrides.openRequests ?? 0,
    openRiders: overrides.openRequests ?? 0,
    activeDrivers: 0,
    busyDrivers: 0,
    recentAcceptDelayMinutes: undefined,
    recentAccepted: 0,
    ...overrides,
  };
}

const close = (actual: number, expected: number, message?: string) =>
  assert.ok(Math.abs(actual - expected) < 1e-9, `${message ?? ''} expected ${expected}, got ${actual}`);

describe('documented constants', () => {
  test('the blend weights sum to 1 and the values match the issue and decisions.md', () => {
    const c = MODEL_CONSTANTS;
    close(c.nextHourWeights.history + c.nextHourWeights.recent + c.nextHourWeights.open, 1);
    close(c.secondHourWeights.history + c.secondHourWeights.recent, 1);
    assert.equal(c.lookbackDays, 14);
    assert.equal(c.recentHours, 3);
    assert.equal(c.activeDriverHours, 6);
    assert.equal(c.forecastPressureWeight, 0.75);
    assert.equal(c.maxMultiplier, 2);
    assert.deepEqual(c.confidence, { lowBelow: 20, mediumBelow: 60 });
    assert.deepEqual(
      c.surgeSteps.map((s) => s.multiplier),
      [1.0, 1.1, 1.25, 1.4, 1.6],
    );
    // Every real UTC offset is a multiple of the bucket width, so a bucket lies within one local hour.
    assert.equal(60 % c.bucketMinutes, 0);
    assert.equal(45 % c.bucketMinutes, 0, 'Asia/Kathmandu is +05:45');
    assert.equal(MODEL, 'demand-heuristics-v1');
  });
});

describe('empty history', () => {
  test('no rides: LOW confidence, no peak, no surge, stable, nothing forecast', () => {
    const result = forecast(input({ activeDrivers: 3, busyDrivers: 0 }));
    assert.equal(result.model, 'demand-heuristics-v1');
    assert.equal(result.generatedAt, new Date(NOW).toISOString());
    assert.equal(result.sampleSize, 0);
    assert.equal(result.confidence, 'LOW');
    assert.deepEqual(result.demandForecast, {
      trend: 'STABLE',
      currentOpenRequests: 0,
      nextHourDemand: 0,
      nextTwoHoursDemand: 0,
      peakWindow: null,
    });
    assert.equal(result.surgeRecommendation.suggestedMultiplier, 1.0);
    assert.equal(result.surgeRecommendation.intensity, 'NORMAL');
    assert.equal(result.etaGuidance.baselinePickupMinutes, 6);
    assert.equal(result.etaGuidance.predictedPickupMinutes, 6, '4 + 2 × max(1, 0)');
    assert.equal(result.etaGuidance.deltaMinutes, 0);
    assert.equal(result.driverSupplyPlan.recommendedOnlineDrivers, 0);
    assert.equal(result.driverSupplyPlan.additionalDriversNeeded, 0);
  });

  test('open requests are the floor of the next hour even without history', () => {
    // blend = 0.5 × 0 + 0.35 × 0 + 0.15 × 2 = 0.3 → 0, floored at the 2 open requests.
    const result = forecast(input({ openRequests: 2, activeDrivers: 5 }));
    assert.equal(result.demandForecast.currentOpenRequests, 2);
    assert.equal(result.demandForecast.nextHourDemand, 2);
    assert.equal(result.demandForecast.nextTwoHoursDemand, 2, 'the second hour has no open-request floor');
    // pressure (2 + 0.75 × 2) / 5 = 0.70 → no surge.
    assert.equal(result.surgeRecommendation.suggestedMultiplier, 1.0);
    assert.equal(result.surgeRecommendation.intensity, 'NORMAL');
    assert.match(result.surgeRecommendation.reason, /pressure 0\.70\b/);
    assert.equal(result.demandForecast.peakWindow, null);
    assert.equal(result.sampleSize, 0);
  });

  test('buckets that hold no ride are no history', () => {
    const result = forecast(input({ buckets: [{ start: NOW - HOUR, count: 0 }] }));
    assert.equal(result.sampleSize, 0);
    assert.equal(result.demandForecast.peakWindow, null);
  });
});

describe('quiet history and confidence', () => {
  /** `n` single rides spread over the fortnight: one every 16 hours 45 minutes back from NOW. */
  const spread = (n: number): Bucket[] => Array.from({ length: n }, (_, i) => ({ start: NOW - (i + 1) * (16 * HOUR + 45 * MINUTE), count: 1 }));

  test('confidence thresholds: 19 LOW, 20 MEDIUM, 59 MEDIUM, 60 HIGH', () => {
    for (const [n, expected] of [[0, 'LOW'], [1, 'LOW'], [19, 'LOW'], [20, 'MEDIUM'], [59, 'MEDIUM'], [60, 'HIGH'], [5000, 'HIGH']] as const) {
      assert.equal(confidenceFor(n), expected, `${n} rides`);
    }
  });

  test('sampleSize is the rides in the buckets and decides the confidence', () => {
    for (const [n, expected] of [[19, 'LOW'], [20, 'MEDIUM']] as const) {
      const result = forecast(input({ buckets: spread(n) }));
      assert.equal(result.sampleSize, n);
      assert.equal(result.confidence, expected, `${n} rides`);
    }
    // Several rides per bucket: counted, not buckets.
    const grouped = (n: number): Bucket[] => [{ start: NOW - 2 * DAY, count: n - 10 }, { start: NOW - 5 * DAY, count: 10 }];
    for (const [n, expected] of [[59, 'MEDIUM'], [60, 'HIGH']] as const) {
      const result = forecast(input({ buckets: grouped(n) }));
      assert.equal(result.sampleSize, n);
      assert.equal(result.confidence, expected, `${n} rides`);
    }
  });

  test('a quiet fortnight forecasts little and does not surge', () => {
    const result = forecast(input({ buckets: spread(19), activeDrivers: 2 }));
    // At most one ride per bucket: every hourly value is well below one ride per day.
    const profile = hourlyProfile(NOW, KOLKATA, spread(19));
    assert.ok(profile.every((value) => value < 0.5), JSON.stringify(profile));
    assert.equal(result.demandForecast.nextHourDemand, 0);
    assert.equal(result.demandForecast.nextTwoHoursDemand, 0);
    assert.equal(result.demandForecast.trend, 'STABLE');
    assert.equal(result.surgeRecommendation.suggestedMultiplier, 1.0);
    assert.match(result.demandForecast.peakWindow ?? '', /^\d{2}:00-\d{2}:00$/);
  });
});

describe('rush hour', () => {
  // 10 rides every day between 08:00 and 09:00 local, for 14 days (08:00 3, 08:15 2, 08:30 3, 08:45 2).
  const rush: Bucket[] = [...daily(8, 3, 0), ...daily(8, 2, 15), ...daily(8, 3, 30), ...daily(8, 2, 45)];

  test('the profile averages 10 rides per day in hour 8 and nothing elsewhere', () => {
    const profile = hourlyProfile(NOW, KOLKATA, rush);
    close(profile[8], 10);
    for (let hour = 0; hour < 24; hour++) if (hour !== 8) assert.equal(profile[hour], 0, `hour ${hour}`);
    assert.equal(forecast(input({ buckets: rush })).sampleSize, 140);
  });

  test('the peak window holds the rush; with all rides in one hour the tie goes to the earlier pair', () => {
    // 07:00-09:00 and 08:00-10:00 both hold all 10 rides; peakWindow keeps the first strictly busier one.
    assert.equal(forecast(input({ buckets: rush })).demandForecast.peakWindow, '07:00-09:00');
    // With the rush spilling into 09:00 the busiest pair is unambiguous.
    const spill = [...rush, ...daily(9, 4)];
    assert.equal(forecast(input({ buckets: spill })).demandForecast.peakWindow, '08:00-10:00');
    // A lead-in at 07:00 that is busier than the tail moves the window earlier.
    const leadIn = [...spill, ...daily(7, 6)];
    assert.equal(forecast(input({ buckets: leadIn })).demandForecast.peakWindow, '07:00-09:00');
  });

  test('at 07:45 the coming hour (middle 08:15) is the rush hour', () => {
    // next = max(open 4, round(0.5 × 10 + 0.35 × (6 / 3) + 0.15 × 4)) = max(4, round(6.3)) = 6
    // second hour (middle 09:15, no history) = round(0.6 × 0 + 0.4 × 2) = 1
    const result = forecast(input({ buckets: rush, recentDemand: 6, openRequests: 4 }));
    assert.equal(result.demandForecast.nextHourDemand, 6);
    assert.equal(result.demandForecast.nextTwoHoursDemand, 7);
    // Without recent rides or open requests: round(0.5 × 10) = 5; second hour 0.
    const calm = forecast(input({ buckets: rush }));
    assert.equal(calm.demandForecast.nextHourDemand, 5);
    assert.equal(calm.demandForecast.nextTwoHoursDemand, 5);
  });

  test('at 07:15 the coming hour (middle 07:45) is hour 7 and the rush is the second hour', () => {
    // next = max(4, round(0.5 × 0 + 0.35 × 2 + 0.15 × 4)) = max(4, round(1.3)) = 4 (the open-request floor)
    // second (middle 08:45) = round(0.6 × 10 + 0.4 × 2) = round(6.8) = 7
    const now = kolkata(7, 15);
    const result = forecast(input({ now, buckets: daily(8, 10, 0, now), recentDemand: 6, openRequests: 4 }));
    assert.equal(result.demandForecast.nextHourDemand, 4);
    assert.equal(result.demandForecast.nextTwoHoursDemand, 11);
  });

  test('an hour ahead of the rush the forecast falls to zero', () => {
    const now = kolkata(10, 30);
    const result = forecast(input({ now, buckets: daily(8, 10, 0, now) }));
    assert.equal(result.demandForecast.nextHourDemand, 0);
    assert.equal(result.demandForecast.nextTwoHoursDemand, 0);
  });

  describe('trend: the last 3 hours (local 05, 06 and 07 at 07:45) against their history', () => {
    // 10 rides a day in each of the three hours: historyRecent = 10 rides/hour.
    const busyMorning = [...daily(5, 10), ...daily(6, 10), ...daily(7, 10)];
    const trend = (buckets: Bucket[], recentDemand: number) => forecast(input({ buckets, recentDemand })).demandForecast.trend;

    test('RISING when the recent rate is more than 20 % and at least 1 ride/hour above history', () => {
      assert.equal(trend(busyMorning, 39), 'RISING', '13/h against 10/h');
      assert.equal(trend(busyMorning, 90), 'RISING', '30/h against 10/h');
      assert.equal(trend([], 6), 'RISING', '2/h against nothing');
    });

    test('SOFT when it is more than 20 % and at least 1 ride/hour below', () => {
      assert.equal(trend(busyMorning, 21), 'SOFT', '7/h against 10/h');
      assert.equal(trend(busyMorning, 0), 'SOFT', 'nothing against 10/h');
    });

    test('STABLE within the margin', () => {
      assert.equal(trend(busyMorning, 30), 'STABLE', '10/h against 10/h');
      assert.equal(trend(busyMorning, 33), 'STABLE', '11/h: gap 1 but only 10 % above');
      assert.equal(trend(busyMorning, 27), 'STABLE', '9/h: gap 1 but only 10 % below');
    });

    test('STABLE when the gap is under minGap (1 ride/hour), however large in percent', () => {
      // 1 ride a day in each hour: history 1/h. 5 recent rides = 1.67/h, +67 % but a gap of 0.67.
      const quiet = [...daily(5, 1), ...daily(6, 1), ...daily(7, 1)];
      assert.equal(trend(quiet, 5), 'STABLE');
      assert.equal(trend(quiet, 7), 'RISING', '2.33/h: gap 1.33 and +133 %');
      assert.equal(trend([], 2), 'STABLE', '0.67/h against nothing');
      // Only hour 5 has history, 1 ride a day: the 3-hour history averages 1/3 per hour; 0 recent is −100 % but a gap of 0.33.
      assert.equal(trend(daily(5, 1), 0), 'STABLE');
      assert.equal(trend(daily(5, 6), 0), 'SOFT', 'history 2/h, nothing recent');
    });

    test('the rush later in the morning does not count as the recent hours', () => {
      assert.equal(trend(rush, 0), 'STABLE');
    });
  });
});

describe('day decay', () => {
  test('equal counts at ages 0 and 10 weigh 0.9^0 against 0.9^10, averaged over Σ 0.9^age', () => {
    const ten = kolkata(10, 0, -1); // yesterday 10:00 local: 21 h 45 m before NOW, age 0
    const buckets = [
      { start: ten, count: 5 },
      { start: kolkata(14, 0, -1) - 10 * DAY, count: 5 }, // 14:00 local, 10 days and 17 h 45 m back: age 10
    ];
    const profile = hourlyProfile(NOW, KOLKATA, buckets);
    close(profile[10], 5 / TOTAL_WEIGHT);
    close(profile[14], (5 * 0.9 ** 10) / TOTAL_WEIGHT);
    close(profile[14] / profile[10], 0.3486784401);
    close(TOTAL_WEIGHT, 7.712320754503);
    assert.equal(profile.filter((value) => value !== 0).length, 2);

    // Both in the same hour: they add up.
    const same = hourlyProfile(NOW, KOLKATA, [buckets[0], { start: ten - 10 * DAY, count: 5 }]);
    close(same[10], (5 * (1 + 0.9 ** 10)) / TOTAL_WEIGHT);
  });

  test('age is counted in whole days back from now', () => {
    const profileOf = (start: number) => hourlyProfile(NOW, KOLKATA, [{ start, count: 1 }])[localHour(start, KOLKATA)];
    close(profileOf(NOW - DAY + 15 * MINUTE), 1 / TOTAL_WEIGHT, 'just under a day back is age 0');
    close(profileOf(NOW - DAY), 0.9 / TOTAL_WEIGHT, 'a day back is age 1');
    close(profileOf(NOW - 14 * DAY + 15 * MINUTE), 0.9 ** 13 / TOTAL_WEIGHT, 'the oldest day is age 13');
    assert.equal(profileOf(NOW - 14 * DAY - 15 * MINUTE), 0, 'older than the look-back is ignored');
    assert.equal(profileOf(NOW + 15 * MINUTE), 0, 'a bucket after now is ignored');
  });

  test('a steady daily count averages to exactly that count; recent days move the average more', () => {
    close(hourlyProfile(NOW, KOLKATA, daily(12, 4))[12], 4);
    // 14 rides yesterday only, against 14 rides 13 days ago only.
    const recent = hourlyProfile(NOW, KOLKATA, [{ start: kolkata(12, 0, -1), count: 14 }])[12];
    const old = hourlyProfile(NOW, KOLKATA, [{ start: kolkata(12, 0, -1) - 12 * DAY, count: 14 }])[12];
    close(recent, 14 / TOTAL_WEIGHT);
    close(old, (14 * 0.9 ** 12) / TOTAL_WEIGHT);
    assert.ok(recent > 3 * old);
  });
});

describe('midnight wrap of the peak window', () => {
  test('busiest hours 23:00 and 00:00 give 23:00-01:00', () => {
    const buckets = [...daily(23, 8), ...daily(0, 8), ...daily(22, 1), ...daily(1, 1), ...daily(12, 5)];
    assert.equal(forecast(input({ buckets })).demandForecast.peakWindow, '23:00-01:00');
  });

  test('peakWindow on raw profiles, across the wrap', () => {
    const profile = (values: Record<number, number>) => Array.from({ length: 24 }, (_, hour) => values[hour] ?? 0);
    assert.equal(peakWindow(profile({})), null);
    assert.equal(peakWindow(profile({ 23: 5, 0: 5 })), '23:00-01:00');
    assert.equal(peakWindow(profile({ 22: 5, 23: 4, 0: 3 })), '22:00-00:00');
    assert.equal(peakWindow(profile({ 23: 3, 0: 5, 1: 4 })), '00:00-02:00');
    assert.equal(peakWindow(profile({ 8: 1, 9: 1, 17: 1.5, 18: 0.6 })), '17:00-19:00');
    assert.equal(peakWindow(profile({ 0: 0.001 })), '00:00-02:00', 'a tie goes to the earliest starting hour of the day (00:00 before 23:00)');
  });

  test('late-night rides on the other side of midnight in Kolkata are still one window', () => {
    // 23:30 local and 00:15 local: 18:00 UTC and 18:45 UTC.
    const lateNight = (minuteUtc: number) => Array.from({ length: 14 }, (_, age) => ({ start: Date.UTC(2026, 2, 17, 18, minuteUtc) - age * DAY, count: 4 }));
    const buckets = [...lateNight(0), ...lateNight(45)];
    const profile = hourlyProfile(NOW, KOLKATA, buckets);
    close(profile[23], 4);
    close(profile[0], 4);
    assert.equal(peakWindow(profile), '23:00-01:00');
  });
});

describe('time zones', () => {
  test('Asia/Kolkata (+05:30): 18:30 UTC is 00:00 local', () => {
    assert.equal(localHour(Date.UTC(2026, 2, 17, 18, 30), KOLKATA), 0);
    assert.equal(localHour(Date.UTC(2026, 2, 17, 18, 29, 59, 999), KOLKATA), 23);
    assert.equal(localHour(Date.UTC(2026, 2, 17, 18, 15), KOLKATA), 23);
    assert.equal(localHour(Date.UTC(2026, 2, 18, 2, 15), KOLKATA), 7);
    assert.equal(localHour(Date.UTC(2026, 2, 18, 0, 0), KOLKATA), 5);
  });

  test('UTC and a +05:45 zone', () => {
    assert.equal(localHour(Date.UTC(2026, 2, 17, 18, 30), 'UTC'), 18);
    assert.equal(localHour(Date.UTC(2026, 2, 17, 0, 0), 'UTC'), 0);
    assert.equal(localHour(Date.UTC(2026, 2, 17, 23, 59), 'UTC'), 23);
    assert.equal(localHour(Date.UTC(2026, 2, 17, 18, 15), 'Asia/Kathmandu'), 0);
    assert.equal(localHour(Date.UTC(2026, 2, 17, 18, 0), 'Asia/Kathmandu'), 23);
  });

  test('hourlyProfile puts the same buckets in different local hours by zone', () => {
    const now = Date.UTC(2026, 2, 18, 12, 0);
    const buckets = [
      { start: Date.UTC(2026, 2, 17, 18, 15), count: 2 }, // Kolkata 23:45, UTC 18:15
      { start: Date.UTC(2026, 2, 17, 18, 30), count: 3 }, // Kolkata 00:00, UTC 18:30
      { start: Date.UTC(2026, 2, 17, 18, 45), count: 4 }, // Kolkata 00:15, UTC 18:45
    ];
    const india = hourlyProfile(now, KOLKATA, buckets);
    close(india[23], 2 / TOTAL_WEIGHT);
    close(india[0], 7 / TOTAL_WEIGHT);
    assert.equal(india[18], 0);
    const utc = hourlyProfile(now, 'UTC', buckets);
    close(utc[18], 9 / TOTAL_WEIGHT);
    assert.equal(utc[0] + utc[23], 0);
  });

  test('America/New_York spring forward (2026-03-08): 02:00 local never happens', () => {
    assert.equal(localHour(Date.UTC(2026, 2, 8, 6, 45), NEW_YORK), 1, '01:45 EST');
    assert.equal(localHour(Date.UTC(2026, 2, 8, 7, 0), NEW_YORK), 3, '03:00 EDT');
    assert.equal(localHour(Date.UTC(2026, 2, 7, 12, 0), NEW_YORK), 7, 'UTC−5 before');
    assert.equal(localHour(Date.UTC(2026, 2, 9, 12, 0), NEW_YORK), 8, 'UTC−4 after');
  });

  test('America/New_York fall back (2026-11-01): 01:00 local happens twice', () => {
    assert.equal(localHour(Date.UTC(2026, 10, 1, 5, 30), NEW_YORK), 1, '01:30 EDT');
    assert.equal(localHour(Date.UTC(2026, 10, 1, 6, 30), NEW_YORK), 1, '01:30 EST');
    assert.equal(localHour(Date.UTC(2026, 10, 1, 7, 0), NEW_YORK), 2);
    const now = Date.UTC(2026, 10, 1, 12, 0);
    const profile = hourlyProfile(now, NEW_YORK, [
      { start: Date.UTC(2026, 10, 1, 5, 30), count: 1 },
      { start: Date.UTC(2026, 10, 1, 6, 30), count: 1 },
    ]);
    close(profile[1], 2 / TOTAL_WEIGHT);
  });

  test('a fixed UTC time moves from 07:00 to 08:00 local across the spring change', () => {
    // 12:00 UTC daily; now Sunday 2026-03-15 13:00 UTC (09:00 EDT). Ages 0..7 (15 down to 8 March) are EDT → 08:00,
    // ages 8..13 (7 down to 2 March) are EST → 07:00.
    const now = Date.UTC(2026, 2, 15, 13, 0);
    const buckets = Array.from({ length: 14 }, (_, age) => ({ start: Date.UTC(2026, 2, 15 - age, 12, 0), count: 1 }));
    const profile = hourlyProfile(now, NEW_YORK, buckets);
    let edt = 0;
    let est = 0;
    for (let age = 0; age < 14; age++) {
      if (age <= 7) edt += 0.9 ** age;
      else est += 0.9 ** age;
    }
    close(profile[8], edt / TOTAL_WEIGHT);
    close(profile[7], est / TOTAL_WEIGHT);
    close(profile[7] + profile[8], 1);
  });

  test('the same local wall-clock time every day stays in one local hour across the change', () => {
    // 08:00 local daily: 13:00 UTC under EST (before 8 March), 12:00 UTC under EDT.
    const now = Date.UTC(2026, 2, 15, 11, 40); // 07:40 EDT
    const buckets = Array.from({ length: 14 }, (_, i) => {
      const day = 14 - i; // 14 down to 1 March… ages 0..13
      return { start: Date.UTC(2026, 2, day, day >= 8 ? 12 : 13, 0), count: 10 };
    });
    const profile = hourlyProfile(now, NEW_YORK, buckets);
    close(profile[8], 10);
    assert.equal(profile.reduce((sum, value) => sum + value, 0) - profile[8], 0);
    // The coming hour (middle 08:10 EDT) is that hour: round(0.5 × 10) = 5.
    const result = forecast(input({ now, timeZone: NEW_YORK, buckets }));
    assert.equal(result.demandForecast.nextHourDemand, 5);
    assert.equal(result.demandForecast.peakWindow, '07:00-09:00');
    // In UTC the same rides split: 12:00 UTC holds the 7 newest days (ages 0..6), 13:00 UTC the 7 older ones.
    const utcProfile = hourlyProfile(now, 'UTC', buckets);
    let newer = 0;
    for (let age = 0; age < 7; age++) newer += 0.9 ** age;
    close(utcProfile[12], (10 * newer) / TOTAL_WEIGHT); // ≈ 6.76
    close(utcProfile[12] + utcProfile[13], 10);
    const utc = forecast(input({ now, timeZone: 'UTC', buckets }));
    assert.equal(utc.demandForecast.nextHourDemand, 3, 'round(0.5 × 6.76)');
    assert.equal(utc.demandForecast.peakWindow, '12:00-14:00');
  });
});

describe('surge', () => {
  test('surgeFor on both sides of every step', () => {
    const cases: Array<[number, number, string]> = [
      [0, 1.0, 'NORMAL'],
      [0.79, 1.0, 'NORMAL'],
      [0.8, 1.1, 'MODERATE'],
      [0.99, 1.1, 'MODERATE'],
      [1.0, 1.25, 'MODERATE'],
      [1.29, 1.25, 'MODERATE'],
      [1.3, 1.4, 'HIGH'],
      [1.69, 1.4, 'HIGH'],
      [1.7, 1.6, 'HIGH'],
      [2.19, 1.6, 'HIGH'],
      [2.2, 1.6, 'SEVERE'],
      [2.4, 1.65, 'SEVERE'], // 1.6 + 0.25 × 0.2
      [3.0, 1.8, 'SEVERE'], // 1.6 + 0.25 × 0.8
      [3.4, 1.9, 'SEVERE'],
      [3.8, 2.0, 'SEVERE'],
      [4.6, 2.0, 'SEVERE'], // 2.2, capped
      [1000, 2.0, 'SEVERE'],
    ];
    for (const [pressure, multiplier, intensity] of cases) {
      assert.deepEqual(surgeFor(pressure), { multiplier, intensity }, `pressure ${pressure}`);
    }
  });

  test('the multiplier never falls as pressure rises, stays in [1, 2] and moves in 0.05 steps', () => {
    const rank = { NORMAL: 0, MODERATE: 1, HIGH: 2, SEVERE: 3 };
    let previous = surgeFor(0);
    for (let hundredths = 1; hundredths <= 1000; hundredths++) {
      const current = surgeFor(hundredths / 100);
      assert.ok(current.multiplier >= previous.multiplier, `at ${hundredths / 100}`);
      assert.ok(rank[current.intensity] >= rank[previous.intensity], `at ${hundredths / 100}`);
      assert.ok(current.multiplier >= 1 && current.multiplier <= 2);
      close(Math.round(current.multiplier * 20), current.multiplier * 20, `0.05 steps at ${hundredths / 100}`);
      previous = current;
    }
  });

  test('pressure = (open + 0.75 × next hour) / max(1, active drivers), quoted in the reason', () => {
    // next = max(3, round(0.15 × 3)) = 3; pressure (3 + 2.25) / 2 = 2.625 → 2.63 → 1.6 + 0.25 × 0.43 = 1.7075 → 1.70
    const a = forecast(input({ openRequests: 3, activeDrivers: 2 }));
    assert.equal(a.demandForecast.nextHourDemand, 3);
    assert.deepEqual([a.surgeRecommendation.suggestedMultiplier, a.surgeRecommendation.intensity], [1.7, 'SEVERE']);
    assert.match(a.surgeRecommendation.reason, /\b3 open requests\b/);
    assert.match(a.surgeRecommendation.reason, /\b3 forecast\b/);
    assert.match(a.surgeRecommendation.reason, /\b2 active drivers\b/);
    assert.match(a.surgeRecommendation.reason, /pressure 2\.63\b/);
    assert.match(a.surgeRecommendation.reason, /1\.70×/);
    assert.match(a.surgeRecommendation.reason, /SEVERE/);

    // No driver at all divides by 1: one open request → (1 + 0.75) / 1 = 1.75 → 1.6 HIGH.
    const b = forecast(input({ openRequests: 1, activeDrivers: 0 }));
    assert.deepEqual([b.surgeRecommendation.suggestedMultiplier, b.surgeRecommendation.intensity], [1.6, 'HIGH']);
    assert.match(b.surgeRecommendation.reason, /\b1 open request\b/);
    assert.match(b.surgeRecommendation.reason, /\b0 active drivers\b/);
    assert.match(b.surgeRecommendation.reason, /pressure 1\.75\b/);

    // The forecast alone: rush at 08:00, 4 drivers. next = round(0.5 × 8) = 4; (0 + 3) / 4 = 0.75 → 1.0 NORMAL.
    const rush = daily(8, 8);
    const c = forecast(input({ buckets: rush, activeDrivers: 4 }));
    assert.equal(c.demandForecast.nextHourDemand, 4);
    assert.deepEqual([c.surgeRecommendation.suggestedMultiplier, c.surgeRecommendation.intensity], [1.0, 'NORMAL']);
    assert.match(c.surgeRecommendation.reason, /pressure 0\.75\b/);
    // Two open requests on top: next = max(2, round(4 + 0.3)) = 4; (2 + 3) / 4 = 1.25 → 1.25 MODERATE.
    const d = forecast(input({ buckets: rush, activeDrivers: 4, openRequests: 2 }));
    assert.equal(d.demandForecast.nextHourDemand, 4);
    assert.deepEqual([d.surgeRecommendation.suggestedMultiplier, d.surgeRecommendation.intensity], [1.25, 'MODERATE']);
    assert.match(d.surgeRecommendation.reason, /\b2 open requests and 4 forecast for the next hour against 4 active drivers\b/);
    assert.match(d.surgeRecommendation.reason, /pressure 1\.25\b/);
    assert.match(d.surgeRecommendation.reason, /1\.25×/);
    // Many open requests, one driver: capped at 2.0.
    const e = forecast(input({ openRequests: 40, activeDrivers: 1 }));
    assert.deepEqual([e.surgeRecommendation.suggestedMultiplier, e.surgeRecommendation.intensity], [2.0, 'SEVERE']);
    assert.match(e.surgeRecommendation.reason, /pressure 70\.00\b/);
  });
});

describe('driver supply plan', () => {
  test('recommended = ceil(next hour / 2); additional = max(0, recommended − active); busy passed through', () => {
    // next 3 → 2 drivers; none active → 2 more.
    const short = forecast(input({ openRequests: 3, activeDrivers: 0, busyDrivers: 7 }));
    assert.deepEqual(short.driverSupplyPlan, {
      activeDriversEstimate: 0,
      busyDrivers: 7,
      recommendedOnlineDrivers: 2,
      additionalDriversNeeded: 2,
      action: short.driverSupplyPlan.action,
    });
    assert.match(short.driverSupplyPlan.action, /\b2 more drivers\b/);
    assert.match(short.driverSupplyPlan.action, /\b3 rides\b/);
    assert.match(short.driverSupplyPlan.action, /\b0 drivers are active\b/);

    // next 9 → 5 drivers; 4 active → 1 more (singular).
    const one = forecast(input({ openRequests: 9, activeDrivers: 4, busyDrivers: 3 }));
    assert.equal(one.demandForecast.nextHourDemand, 9);
    assert.equal(one.driverSupplyPlan.recommendedOnlineDrivers, 5);
    assert.equal(one.driverSupplyPlan.additionalDriversNeeded, 1);
    assert.equal(one.driverSupplyPlan.busyDrivers, 3);
    assert.equal(one.driverSupplyPlan.activeDriversEstimate, 4);
    assert.match(one.driverSupplyPlan.action, /\b1 more driver online\b/);
    assert.match(one.driverSupplyPlan.action, /\b9 rides\b/);
    assert.match(one.driverSupplyPlan.action, /\b4 drivers are active\b/);

    // next 3 → 2 drivers; 2 active → enough.
    const enough = forecast(input({ openRequests: 3, activeDrivers: 2 }));
    assert.equal(enough.driverSupplyPlan.recommendedOnlineDrivers, 2);
    assert.equal(enough.driverSupplyPlan.additionalDriversNeeded, 0);
    assert.match(enough.driverSupplyPlan.action, /sufficient/i);
    assert.match(enough.driverSupplyPlan.action, /\b2 active drivers\b/);
    assert.match(enough.driverSupplyPlan.action, /\b3 rides\b/);

    // More active than needed never gives a negative shortfall.
    const plenty = forecast(input({ openRequests: 1, activeDrivers: 30 }));
    assert.equal(plenty.driverSupplyPlan.recommendedOnlineDrivers, 1);
    assert.equal(plenty.driverSupplyPlan.additionalDriversNeeded, 0);
  });
});

describe('ETA guidance', () => {
  test('predicted = max(1, round(4 + accept delay × max(1, pressure))); baseline 6; delta = predicted − 6', () => {
    // Default accept delay 2 at pressure 2.63: 4 + 5.26 = 9.26 → 9.
    const busy = forecast(input({ openRequests: 3, activeDrivers: 2 }));
    assert.deepEqual(
      { ...busy.etaGuidance, reason: '' },
      { baselinePickupMinutes: 6, predictedPickupMinutes: 9, deltaMinutes: 3, reason: '' },
    );
    assert.match(busy.etaGuidance.reason, /No ride was accepted in the last 3 hours/);
    assert.match(busy.etaGuidance.reason, /\b2-minute accept delay\b/);
    assert.match(busy.etaGuidance.reason, /pressure 2\.63\b/);

    // Measured delay 3.5 at the same pressure: 4 + 9.205 = 13.205 → 13.
    const slow = forecast(input({ openRequests: 3, activeDrivers: 2, recentAcceptDelayMinutes: 3.5, recentAccepted: 5 }));
    assert.equal(slow.etaGuidance.predictedPickupMinutes, 13);
    assert.equal(slow.etaGuidance.deltaMinutes, 7);
    assert.match(slow.etaGuidance.reason, /\b5 rides\b/);
    assert.match(slow.etaGuidance.reason, /\b3\.5 minutes\b/);

    // Pressure below 1 counts as 1: 0.75 with delay 0.4 → 4.4 → 4, two minutes better than baseline.
    const quick = forecast(input({ buckets: daily(8, 8), activeDrivers: 4, recentAcceptDelayMinutes: 0.4, recentAccepted: 1 }));
    assert.equal(quick.etaGuidance.predictedPickupMinutes, 4);
    assert.equal(quick.etaGuidance.deltaMinutes, -2);
    assert.match(quick.etaGuidance.reason, /\b1 ride\b/);

    // No delay measured and no pressure: 4 + 2 × 1 = 6, the baseline.
    const idle = forecast(input({ activeDrivers: 3 }));
    assert.equal(idle.etaGuidance.predictedPickupMinutes, 6);
    assert.equal(idle.etaGuidance.deltaMinutes, 0);

    // A measured zero delay is used as such, not replaced by the default: 4 + 0 = 4.
    const instant = forecast(input({ activeDrivers: 3, recentAcceptDelayMinutes: 0, recentAccepted: 2 }));
    assert.equal(instant.etaGuidance.predictedPickupMinutes, 4);
  });
});

describe('next two hours', () => {
  test('nextTwoHoursDemand = next hour (with the open floor) + second hour (without it)', () => {
    // Rush at 08:00 and 09:00 (10 and 6 a day); now 07:45, 9 recent rides (3/h), 12 open.
    // next = max(12, round(0.5 × 10 + 0.35 × 3 + 0.15 × 12)) = max(12, round(7.85)) = 12
    // second (middle 09:15) = round(0.6 × 6 + 0.4 × 3) = round(4.8) = 5
    const buckets = [...daily(8, 10), ...daily(9, 6)];
    const floored = forecast(input({ buckets, recentDemand: 9, openRequests: 12 }));
    assert.equal(floored.demandForecast.nextHourDemand, 12);
    assert.equal(floored.demandForecast.nextTwoHoursDemand, 17);
    // With 2 open: next = max(2, round(5 + 1.05 + 0.3)) = round(6.35) = 6; two hours 11.
    const blended = forecast(input({ buckets, recentDemand: 9, openRequests: 2 }));
    assert.equal(blended.demandForecast.nextHourDemand, 6);
    assert.equal(blended.demandForecast.nextTwoHoursDemand, 11);
  });
});
