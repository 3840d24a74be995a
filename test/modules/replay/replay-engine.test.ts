import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { PickupWays } from '../../../src/modules/dispatch/pickup-ways.ts';
import { FIRST_RULES } from '../../../src/modules/pricing/pricing.model.ts';
import type { PricingRules } from '../../../src/modules/pricing/pricing.schemas.ts';
import { replayPeriod, type ReplayInputs, type ReplaySettings } from '../../../src/modules/replay/replay-engine.ts';
import { periodFigures } from '../../../src/modules/replay/replay-figures.ts';
import { packSample } from '../../../src/modules/replay/supply-samples.ts';
import { StraightRouter } from '../../../src/platform/routing/straight-router.ts';

// The replay engine on a small made-up period: what it does with drivers, riders and settings, each
// checked against what the service's own rules say should happen.

const FROM = Date.UTC(2026, 10, 23, 4, 30); // 10:00 in Kolkata: no night fares
const HOUR = 3_600_000;
const CENTRE = { lat: 12.9716, lon: 77.5946 };
const router = new StraightRouter();
const tools = { router, ways: new PickupWays({ router }) };
const everyoneAccepts = { offers: 0, acceptedShare: 1, intercept: 20, perKm: 0, perHundredRupees: 0 };
const nobodyCancels = { requests: 0, cancelled: 0, perMinute: 0, halfLifeMinutes: null };
const answerAtOnce = { accepted: 0, acceptMeanMs: 0, refused: 0, refuseMeanMs: 0 };
const asQuoted = { rides: 0, quotedMinutes: 0, heldMinutes: 0, factor: 1 };
const settings = (rules: PricingRules = FIRST_RULES): ReplaySettings => ({
  dispatch: { mode: 'batched', batchMs: 2_000, offerTtlMs: 15_000, maxMs: 120_000 },
  rules,
  pricingVersion: 1,
  timeZone: 'Asia/Kolkata',
  seed: 1,
});

/** `drivers` mini drivers around the centre all hour, sampled every 30 s; `rides` mini rides asked evenly over the hour, all at the centre. */
function period(drivers: number, rides: number, behaviour: Partial<ReplayInputs['behaviour']> = {}): ReplayInputs {
  const fleet = Array.from({ length: drivers }, (_, i) => ({ driverId: i + 1, lat: CENTRE.lat + (i % 5) * 0.002, lon: CENTRE.lon + Math.floor(i / 5) * 0.002, busy: false }));
  return {
    from: FROM,
    to: FROM + HOUR,
    requests: Array.from({ length: rides }, (_, i) => ({ id: i + 1, riderId: 1000 + i, at: FROM + Math.floor((i * HOUR) / rides), rideType: 'mini' as const, pickup: CENTRE, drop: { lat: CENTRE.lat + 0.03, lon: CENTRE.lon } })),
    samples: Array.from({ length: HOUR / 30_000 }, (_, i) => ({ at: FROM + i * 30_000, packed: packSample(fleet) })),
    vehicles: new Map(fleet.map((driver) => [driver.driverId, 'mini' as const])),
    behaviour: { acceptance: everyoneAccepts, cancellation: nobodyCancels, answers: answerAtOnce, tripTimes: asQuoted, ...behaviour },
  };
}

describe('replaying a period', () => {
  test('enough drivers who take every offer: every ride is matched, at the fare the rules quote, the drivers earning their share', async () => {
    const hours = await replayPeriod(period(20, 30), settings(), tools);
    const figures = periodFigures(hours);
    assert.equal(figures.requests, 30);
    assert.equal(figures.matchedShare, 1);
    assert.equal(figures.cancellations, 0);
    assert.equal(figures.surgedShare, 0, 'never more riders waiting than drivers free');
    // 0.03° north is 3.34 km straight, 4.34 km by the straight router's roads.
    const rate = FIRST_RULES.fares.mini;
    assert.ok(figures.meanFare! >= rate.minimum, `mean fare ${figures.meanFare}`);
    assert.equal(new Set(hours.flatMap((hour) => hour.fares)).size, 1, 'the same trip costs the same');
    assert.ok(figures.pickupEtaP50Minutes! >= 1 && figures.pickupEtaP90Minutes! <= 5, `pickup ETA ${figures.pickupEtaP50Minutes}–${figures.pickupEtaP90Minutes}`);
    assert.equal(figures.driverEarningsPerOnlineHour, Math.round(((figures.meanFare! * 30 * FIRST_RULES.driverShare) / 20) * 100) / 100, 'earnings over 20 driver-hours online');
  });

  test('no drivers: nobody is matched; riders who give up are counted', async () => {
    const none = periodFigures(await replayPeriod(period(0, 30), settings(), tools));
    assert.equal(none.matchedShare, 0);
    assert.equal(none.meanFare, null);
    const impatient = periodFigures(await replayPeriod(period(0, 30, { cancellation: { ...nobodyCancels, perMinute: 2 } }), settings(), tools));
    assert.ok(impatient.cancellations >= 25, `${impatient.cancellations} of 30 gave up within the two minutes dispatch tries`);
  });

  test('drivers who turn offers down leave riders unmatched, and the same seed replays the same', async () => {
    const reluctant = period(20, 30, { acceptance: { ...everyoneAccepts, intercept: -3 } });
    const first = periodFigures(await replayPeriod(reluctant, settings(), tools));
    assert.ok(first.matchedShare! < 1, `matched ${first.matchedShare}`);
    assert.deepEqual(periodFigures(await replayPeriod(reluctant, settings(), tools)), first);
  });

  test("drivers who take the period's time to turn offers down hold each ride meanwhile: fewer drivers are asked before dispatch gives up", async () => {
    const reluctant = { acceptance: { ...everyoneAccepts, intercept: -3 } };
    const atOnce = periodFigures(await replayPeriod(period(20, 30, reluctant), settings(), tools));
    const slow = periodFigures(await replayPeriod(period(20, 30, { ...reluctant, answers: { ...answerAtOnce, refuseMeanMs: 15_000 } }), settings(), tools));
    assert.ok(slow.matchedShare! < atOnce.matchedShare!, `matched ${slow.matchedShare} < ${atOnce.matchedShare}`);
    // No answer takes longer than the replayed offer lasts (15 s): a minute's refusals replay as 15 s ones.
    const slower = periodFigures(await replayPeriod(period(20, 30, { ...reluctant, answers: { ...answerAtOnce, refuseMeanMs: 60_000 } }), settings(), tools));
    assert.deepEqual(slower, slow);
  });

  test('a driver who takes seconds to accept is matched then, at the way offered', async () => {
    const slowly = periodFigures(await replayPeriod(period(20, 30, { answers: { ...answerAtOnce, acceptMeanMs: 8_000 } }), settings(), tools));
    const atOnce = periodFigures(await replayPeriod(period(20, 30), settings(), tools));
    assert.equal(slowly.matchedShare, 1);
    assert.deepEqual([slowly.pickupEtaMeanMinutes, slowly.meanFare], [atOnce.pickupEtaMeanMinutes, atOnce.meanFare]);
  });

  test('a driver the samples saw on a trip of the period stays where the replay last had them free, not somewhere on that route', async () => {
    // Free 5 km north at first; from the second sample on, on a trip passing the pickup.
    const far = { driverId: 1, lat: CENTRE.lat + 0.045, lon: CENTRE.lon };
    const passing = (busy: boolean) => {
      const inputs = period(1, 1);
      const samples = inputs.samples.map((sample, i) => ({ at: sample.at, packed: packSample([i === 0 ? { ...far, busy: false } : { driverId: 1, ...CENTRE, busy }]) }));
      return { ...inputs, samples, requests: inputs.requests.map((ride) => ({ ...ride, at: FROM + 10 * 60_000 })) };
    };
    const onTrip = periodFigures(await replayPeriod(passing(true), settings(), tools));
    const free = periodFigures(await replayPeriod(passing(false), settings(), tools));
    assert.equal(free.pickupEtaMeanMinutes, 1, 'sampled free at the pickup: there in a minute');
    assert.ok(onTrip.pickupEtaMeanMinutes! >= 8, `sampled on a trip: still 5 km away (${onTrip.pickupEtaMeanMinutes} minutes)`);
  });

  test('more riders than drivers: zones surge up to the cap of the pricing document replayed', async () => {
    const busy = period(3, 200);
    const capped = periodFigures(await replayPeriod(busy, settings({ ...FIRST_RULES, surgeCap: 1 }), tools));
    const surging = periodFigures(await replayPeriod(busy, settings({ ...FIRST_RULES, surgeCap: 2 }), tools));
    assert.equal(capped.surgedShare, 0, 'a cap of 1 means no surge');
    assert.ok(surging.surgedShare! > 0.5, `surged ${surging.surgedShare}`);
    assert.ok(surging.meanFare! > capped.meanFare!, `${surging.meanFare} > ${capped.meanFare}`);
  });

  test('in a simulated city (SIMULATION_SPEED), trips last their minutes of the city\'s time: a lone driver is free again that many times sooner', async () => {
    // One driver; a ride every 3 minutes of the clock, each keeping its driver some 12 minutes (pickup and trip).
    const lone = period(1, 20);
    const real = periodFigures(await replayPeriod(lone, settings(), tools));
    const simulated = periodFigures(await replayPeriod(lone, { ...settings(), speed: 20 }, tools));
    assert.ok(real.matchedShare! < 0.5, `at the clock's pace the driver is still on a trip for most requests (matched ${real.matchedShare})`);
    assert.equal(simulated.matchedShare, 1, 'at 20×, each trip is over in well under the 3 minutes to the next request');
    // Trips that held their drivers ten times their quoted minutes in the period (some 6 minutes of the clock) do so in the replay.
    const slowTrips = periodFigures(await replayPeriod(period(1, 20, { tripTimes: { ...asQuoted, factor: 10 } }), { ...settings(), speed: 20 }, tools));
    assert.ok(slowTrips.matchedShare! <= 0.6, `the driver is still on the last trip for about every other request (matched ${slowTrips.matchedShare})`);
  });
});
