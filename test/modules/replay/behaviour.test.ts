import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { routes } from '../../../src/contract/routes.ts';
import { acceptanceBands, acceptProbability, cancellationBands, fitAcceptance, fitAnswerTimes, fitCancellation, fitTripTimes, heldRidesOf, waitsOf } from '../../../src/modules/replay/behaviour.ts';
import { apiOf } from '../../helpers/api.ts';
import { call, type TestApp } from '../../helpers/app.ts';
import { createTestAppWithAdmin, signUp, type TestUser } from '../../helpers/factories.ts';
import { driverAt, near, offerOf, PICKUP } from '../../helpers/dispatch.ts';
import { assertOk, bookRide, setStatus } from '../../helpers/rides.ts';

// decisions.md "What-if replay": rider and driver behaviour (acceptance by pickup distance, cancellation
// by wait) fitted from the period, with the fit's figures shown.

/** A seeded generator (mulberry32), so a failing fit fails the same way every run. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('fitting behaviour', () => {
  test('acceptance: the coefficients drivers answered by are found again from 20,000 offers', () => {
    const next = random(7);
    const truth = { intercept: 2, perKm: -0.8, perHundredRupees: 0.3 };
    const offers = Array.from({ length: 20_000 }, () => {
      const pickupKm = next() * 6;
      const fare = 80 + next() * 600;
      const p = 1 / (1 + Math.exp(-(truth.intercept + truth.perKm * pickupKm + truth.perHundredRupees * (fare / 100))));
      return { pickupKm, fare, accepted: next() < p, answerMs: 0 };
    });
    const model = fitAcceptance(offers);
    assert.equal(model.offers, 20_000);
    assert.ok(Math.abs(model.intercept - truth.intercept) < 0.15, `intercept ${model.intercept}`);
    assert.ok(Math.abs(model.perKm - truth.perKm) < 0.05, `perKm ${model.perKm}`);
    assert.ok(Math.abs(model.perHundredRupees - truth.perHundredRupees) < 0.05, `perHundredRupees ${model.perHundredRupees}`);
    for (const band of acceptanceBands(model, offers, [0, 1, 2, 4])) {
      assert.ok(Math.abs(band.observed! - band.fitted!) < 0.02, `band from ${band.from} km: observed ${band.observed}, fitted ${band.fitted}`);
    }
    assert.ok(acceptProbability(model, 0.5, 300) > acceptProbability(model, 5, 300), 'nearer pickups are taken more often');
  });

  test('acceptance: a few dozen offers taken whatever their distance and fare give one share for all, not slopes drawn from noise', () => {
    const next = random(3);
    const offers = Array.from({ length: 45 }, () => ({ pickupKm: next() * 5, fare: 80 + next() * 300, accepted: next() < 0.8, answerMs: 0 }));
    const model = fitAcceptance(offers);
    assert.deepEqual([model.perKm, model.perHundredRupees], [0, 0]);
    assert.ok(Math.abs(acceptProbability(model, 4, 300) - model.acceptedShare) < 0.01, `${acceptProbability(model, 4, 300)} ≈ ${model.acceptedShare}`);
  });

  test('acceptance: a period where every offer was taken, or none was made, still gives a usable model', () => {
    const all = fitAcceptance(Array.from({ length: 50 }, (_, i) => ({ pickupKm: i / 10, fare: 200, accepted: true, answerMs: 0 })));
    assert.ok(Number.isFinite(all.intercept) && Number.isFinite(all.perKm));
    assert.ok(acceptProbability(all, 2, 200) > 0.95, 'almost surely accepted');
    const none = fitAcceptance([]);
    assert.equal(none.offers, 0);
    assert.ok(acceptProbability(none, 2, 200) > 0.99, 'no data: drivers take what they are offered');
  });

  test("cancellation: riders' rate of giving up is found again though most waits end in a match", () => {
    const next = random(11);
    const perMinute = 0.15;
    const waits = Array.from({ length: 20_000 }, () => {
      const givesUpAt = -Math.log(1 - next()) / perMinute;
      const matchedAt = next() * 8;
      return givesUpAt < matchedAt ? { waitedMinutes: givesUpAt, cancelled: true } : { waitedMinutes: matchedAt, cancelled: false };
    });
    const model = fitCancellation(waits);
    assert.ok(Math.abs(model.perMinute - perMinute) / perMinute < 0.05, `rate ${model.perMinute}`);
    assert.ok(Math.abs(model.halfLifeMinutes! - Math.LN2 / perMinute) < 0.3);
    for (const band of cancellationBands(model, waits, [0, 1, 2, 5])) {
      assert.ok(Math.abs(band.observed! - band.fitted!) < 0.02, `band from ${band.from} min: observed ${band.observed}, fitted ${band.fitted}`);
    }
    assert.deepEqual(fitCancellation([]), { requests: 0, cancelled: 0, perMinute: 0, halfLifeMinutes: null });
  });

  test('a rider who cancels once dispatch found nobody waited until then, and is no cancellation', () => {
    const waits = waitsOf([
      { at: 0, waitEnded: 150_000, noDriverAt: 120_000, cancelledByRider: true },
      { at: 0, waitEnded: 60_000, noDriverAt: null, cancelledByRider: true },
      { at: 0, waitEnded: 30_000, noDriverAt: null, cancelledByRider: false },
      { at: 0, waitEnded: null, noDriverAt: null, cancelledByRider: false },
    ]);
    assert.deepEqual(waits, [{ waitedMinutes: 2, cancelled: false }, { waitedMinutes: 1, cancelled: true }, { waitedMinutes: 0.5, cancelled: false }]);
    assert.equal(fitCancellation(waits).perMinute, 1 / 3.5);
  });

  test("answer times and trips' length over their quote are the period's own", () => {
    const offers = [
      { pickupKm: 1, fare: 200, accepted: true, answerMs: 4_000 },
      { pickupKm: 3, fare: 200, accepted: true, answerMs: 6_000 },
      { pickupKm: 2, fare: 200, accepted: false, answerMs: 15_000 },
    ];
    assert.deepEqual(fitAnswerTimes(offers), { accepted: 2, acceptMeanMs: 5_000, refused: 1, refuseMeanMs: 15_000 });
    // Ride 1 took 30 minutes for a 3 + 12 minutes' quote, ride 2 is still on its way, ride 3 has no offer known.
    const held = heldRidesOf(
      [
        { id: 1, acceptedAt: 0, completedAt: 1_800_000, durationMinutes: 12 },
        { id: 2, acceptedAt: 0, completedAt: null, durationMinutes: 12 },
        { id: 3, acceptedAt: 0, completedAt: 600_000, durationMinutes: 5 },
      ],
      new Map([[1, 3], [2, 9]]),
    );
    assert.deepEqual(held, [{ acceptedAt: 0, completedAt: 1_800_000, quotedMinutes: 15 }]);
    assert.equal(fitTripTimes(held).factor, 2);
    assert.equal(fitTripTimes(held, 20).factor, 40, "at 20× a clock's minute is 20 of the city's");
    assert.equal(fitTripTimes([]).factor, 1);
  });
});

describe('GET /admin/behaviour', () => {
  let t: TestApp;
  let admin: TestUser;
  before(async () => {
    ({ t, admin } = await createTestAppWithAdmin({ dispatch: { mode: 'nearest', batchMs: 60, offerTtlMs: 15_000, maxMs: 600_000 } }));
  });
  after(() => t.close());

  test("fits what dispatch, drivers and riders did: an offer declined at once and one taken after 12 s, a rider who gave up after three minutes, a trip that held its driver 23 minutes", async () => {
    const from = new Date(t.clock.now() - 60_000).toISOString();
    const declining = await driverAt(t, near(PICKUP, 0.3));
    const driver = await driverAt(t, near(PICKUP, 0.6));
    const rider = await signUp(t);
    const book = () => bookRide(t, rider, { pickupLat: PICKUP.lat, pickupLon: PICKUP.lon, dropLat: PICKUP.lat + 0.05, dropLon: PICKUP.lon });

    const taken = await book();
    const first = await offerOf(t, declining, taken.id);
    assertOk(await call(t.app, 'POST', `/drivers/me/offers/${first.offerId}/decline`, { token: declining.token }));
    const second = await offerOf(t, driver, taken.id);
    t.clock.advance(12_000);
    assertOk(await call(t.app, 'POST', `/drivers/me/offers/${second.offerId}/accept`, { token: driver.token }));

    // Nobody left to offer it to: the rider waits three minutes, then cancels.
    assertOk(await call(t.app, 'DELETE', '/drivers/me/location', { token: declining.token }));
    const abandoned = await book();
    t.clock.advance(180_000);
    assertOk(await call(t.app, 'POST', `/rides/cancel/${abandoned.id}`, { token: rider.token }));
    // The taken ride: picked up, and dropped 20 minutes later, 23 after the driver accepted it.
    assertOk(await setStatus(t, driver, taken.id, { status: 'PICKED', otp: taken.startOtp }));
    t.clock.advance(20 * 60_000);
    assertOk(await setStatus(t, driver, taken.id, { status: 'COMPLETED', otp: taken.endOtp }));

    const to = new Date(t.clock.now() + 60_000).toISOString();
    const fit = await apiOf(t, admin).call(routes.admin.behaviour, { query: { from, to } });
    assert.equal(fit.acceptance.offers, 2);
    assert.equal(fit.acceptance.acceptedShare, 0.5);
    assert.equal(fit.acceptance.byPickupKm.reduce((sum, band) => sum + band.count, 0), 2, 'each offer in one band');
    assert.equal(fit.cancellation.requests, 2);
    assert.equal(fit.cancellation.cancelled, 1);
    assert.ok(Math.abs(fit.cancellation.perMinute - 1 / 3.2) < 1e-9, `one cancellation over 3.2 minutes waited: ${fit.cancellation.perMinute}`);
    // In the first minute both riders were at risk, one for 0.2 minutes and one for all of it: 1.2 minutes at 1/3.2 a minute, over 2 riders.
    const firstMinute = fit.cancellation.byWaitMinutes[0];
    assert.deepEqual({ ...firstMinute, fitted: Math.round(firstMinute.fitted! * 1e6) / 1e6 }, { from: 0, to: 1, count: 2, observed: 0, fitted: Math.round((1.2 / 3.2 / 2) * 1e6) / 1e6 });
    assert.deepEqual(fit.answers, { accepted: 1, acceptMeanMs: 12_000, refused: 1, refuseMeanMs: 0 });
    const quoted = second.pickupEtaMinutes + taken.durationMinutes;
    assert.deepEqual(fit.tripTimes, { rides: 1, quotedMinutes: quoted, heldMinutes: 23, factor: 23 / quoted });
  });

  test('a period is checked like the supply one, for operators only', async () => {
    const now = t.clock.now();
    const query = (from: number, to: number) => ({ from: new Date(from).toISOString(), to: new Date(to).toISOString() });
    assert.equal((await apiOf(t, admin).send(routes.admin.behaviour, { query: query(now, now) })).status, 400);
    assert.equal((await apiOf(t, admin).send(routes.admin.behaviour, { query: query(now - 9 * 86_400_000, now) })).status, 400);
    assert.equal((await apiOf(t, await signUp(t, { role: 'DRIVER' })).send(routes.admin.behaviour, { query: query(now - 1000, now) })).status, 403);
  });
});
