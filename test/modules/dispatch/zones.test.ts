import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { FIRST_RULES } from '../../../src/modules/pricing/pricing.model.ts';
import { neighboursOf, zoneCentre, zoneOf } from '../../../src/platform/geo/zones.ts';
import { call, type TestApp } from '../../helpers/app.ts';
import { createTestAppWithAdmin, signUp, type TestUser } from '../../helpers/factories.ts';
import { driverAt, eventually } from '../../helpers/dispatch.ts';
import { assertError, assertOk, bookRide } from '../../helpers/rides.ts';

// decisions.md "Zones and surge": demand (distinct riders waiting), supply (available drivers) and
// surge per H3 zone; a quote's surge is its pickup zone's. The dispatch leader publishes the table
// every round (ROUND_MS here); every instance quotes from it.

const ROUND_MS = 60;

describe('zones and surge', () => {
  let t: TestApp;
  let admin: TestUser;
  before(async () => {
    // Broadcast: nothing is offered, so open requests stay open and the table is all there is to see.
    ({ t, admin } = await createTestAppWithAdmin({ dispatch: { mode: 'broadcast', batchMs: ROUND_MS, offerTtlMs: 15_000, maxMs: 600_000 } }));
  });
  after(() => t.close());

  const zones = async () => {
    const reply = await call(t.app, 'GET', '/admin/zones', { token: admin.token });
    assert.equal(reply.status, 200, JSON.stringify(reply.body));
    return reply.body as { generatedAt: string | null; zones: Array<{ zone: string; demand: number; supply: number; multiplier: number }> };
  };
  const estimateAt = async (at: { lat: number; lon: number }) => {
    const q = new URLSearchParams({ pickupLat: String(at.lat), pickupLon: String(at.lon), dropLat: String(at.lat + 0.05), dropLon: String(at.lon) });
    const reply = await call(t.app, 'GET', `/rides/estimate?${q.toString()}`);
    assert.equal(reply.status, 200, JSON.stringify(reply.body));
    return reply.body as { surgeMultiplier: number; fare: number };
  };
  const bookAt = (rider: TestUser, at: { lat: number; lon: number }) => bookRide(t, rider, { pickupLat: at.lat, pickupLon: at.lon, dropLat: at.lat + 0.05, dropLon: at.lon });
  const zoneBecomes = (zone: string, check: (entry: { demand: number; supply: number; multiplier: number }) => boolean) =>
    eventually(async () => (await zones()).zones.find((entry) => entry.zone === zone && check(entry)), `zone ${zone} to change`);

  test('surge rises in a busy zone and not in the empty zone next to it; quotes follow their pickup zone', async () => {
    const busy = zoneCentre(zoneOf({ lat: 12.9716, lon: 77.5946 }));
    const next = zoneCentre(neighboursOf(zoneOf(busy))[0]);
    for (let i = 0; i < 4; i++) await bookAt(await signUp(t), busy);
    const entry = await zoneBecomes(zoneOf(busy), (e) => e.demand === 4);
    assert.ok(entry.multiplier > 1, `busy zone multiplier ${entry.multiplier}`);
    const quote = await estimateAt(busy);
    assert.equal(quote.surgeMultiplier, entry.multiplier, 'a quote in the busy zone carries its surge');
    assert.equal((await estimateAt(next)).surgeMultiplier, 1, 'the zone next door does not surge');
    const booked = await bookAt(await signUp(t), busy);
    assert.deepEqual({ surge: booked.surgeMultiplier, fare: booked.fare }, { surge: entry.multiplier, fare: quote.fare }, 'the booking is charged the quote, surge included');
    const zoneAnswer = await call(t.app, 'GET', `/rides/insights/predictive?lat=${busy.lat}&lon=${busy.lon}`, { token: admin.token });
    assert.equal(zoneAnswer.body.zone.zone, zoneOf(busy));
    assert.equal(zoneAnswer.body.surgeRecommendation.suggestedMultiplier, entry.multiplier);
  });

  test("one rider's bookings count once: they cannot raise a zone's surge", async () => {
    const spot = zoneCentre(zoneOf({ lat: 13.05, lon: 77.62 }));
    const hoarder = await signUp(t);
    await bookAt(hoarder, spot);
    const one = await zoneBecomes(zoneOf(spot), (e) => e.demand === 1);
    await bookAt(hoarder, spot);
    await bookAt(hoarder, spot);
    await new Promise((resolve) => setTimeout(resolve, 4 * ROUND_MS));
    const after = (await zones()).zones.find((e) => e.zone === zoneOf(spot))!;
    assert.equal(after.demand, 1);
    assert.equal(after.multiplier, one.multiplier);
  });

  test('available drivers are the supply and bring the surge down', async () => {
    const spot = zoneCentre(zoneOf({ lat: 12.90, lon: 77.50 }));
    for (let i = 0; i < 3; i++) await bookAt(await signUp(t), spot);
    const surged = await zoneBecomes(zoneOf(spot), (e) => e.demand === 3);
    for (let i = 0; i < 6; i++) await driverAt(t, spot);
    const relieved = await zoneBecomes(zoneOf(spot), (e) => e.supply === 6);
    assert.ok(relieved.multiplier < surged.multiplier, `${relieved.multiplier} < ${surged.multiplier}`);
  });

  test("a zone's surge is capped by the pricing rules in force", async () => {
    const spot = zoneCentre(zoneOf({ lat: 13.1, lon: 77.45 }));
    for (let i = 0; i < 4; i++) await bookAt(await signUp(t), spot);
    const entry = await zoneBecomes(zoneOf(spot), (e) => e.demand === 4);
    assert.ok(entry.multiplier > 1.5, `zone multiplier ${entry.multiplier}`);
    assertOk(await call(t.app, 'PUT', '/admin/pricing', { token: admin.token, body: { ...FIRST_RULES, surgeCap: 1.5 } }));
    await eventually(async () => ((await estimateAt(spot)).surgeMultiplier === 1.5 ? true : undefined), 'quotes capped at 1.5');
  });

  test('GET /admin/zones is for operators only', async () => {
    assertError(await call(t.app, 'GET', '/admin/zones', { token: (await signUp(t)).token }), 403);
    assertError(await call(t.app, 'GET', '/admin/zones'), 401);
  });
});
