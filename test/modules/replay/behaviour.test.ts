import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { routes } from '../../../src/contract/routes.ts';
import { acceptanceBands, acceptProbability, cancellationBands, fitAcceptance, fitCancellation } from '../../../src/modules/replay/behaviour.ts';
import { apiOf } from '../../helpers/api.ts';
import { call, type TestApp } from '../../helpers/app.ts';
import { createTestAppWithAdmin, signUp, type TestUser } from '../../helpers/factories.ts';
import { driverAt, near, offerOf, PICKUP } from '../../helpers/dispatch.ts';
import { assertOk, bookRide } from '../../helpers/rides.ts';

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
      return { pickupKm, fare, accepted: next() < p };
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

  test('acceptance: a period where every offer was taken, or none was made, still gives a usable model', () => {
    const all = fitAcceptance(Array.from({ length: 50 }, (_, i) => ({ pickupKm: i / 10, fare: 200, accepted: true })));
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
});

describe('GET /admin/behaviour', () => {
  let t: TestApp;
  let admin: TestUser;
  before(async () => {
    ({ t, admin } = await createTestAppWithAdmin({ dispatch: { mode: 'nearest', batchMs: 60, offerTtlMs: 15_000, maxMs: 600_000 } }));
  });
  after(() => t.close());

  test("fits what dispatch and riders did: an offer declined and one taken, a rider who gave up after three minutes", async () => {
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
  });

  test('a period is checked like the supply one, for operators only', async () => {
    const now = t.clock.now();
    const query = (from: number, to: number) => ({ from: new Date(from).toISOString(), to: new Date(to).toISOString() });
    assert.equal((await apiOf(t, admin).send(routes.admin.behaviour, { query: query(now, now) })).status, 400);
    assert.equal((await apiOf(t, admin).send(routes.admin.behaviour, { query: query(now - 9 * 86_400_000, now) })).status, 400);
    assert.equal((await apiOf(t, await signUp(t, { role: 'DRIVER' })).send(routes.admin.behaviour, { query: query(now - 1000, now) })).status, 403);
  });
});
