import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { routes } from '../../../src/contract/routes.ts';
import type { WhatIfJob } from '../../../src/contract/types.ts';
import { FIRST_RULES } from '../../../src/modules/pricing/pricing.model.ts';
import { SUPPLY_SAMPLE_MS } from '../../../src/modules/replay/supply-samples.ts';
import { apiOf } from '../../helpers/api.ts';
import { call, createTestApp, type TestApp } from '../../helpers/app.ts';
import { driverAt, near, offerOf, PICKUP } from '../../helpers/dispatch.ts';
import { signUp, uniqueEmail, type TestUser } from '../../helpers/factories.ts';
import { assertOk, bookRide } from '../../helpers/rides.ts';

// decisions.md "What-if replay": POST /admin/what-if replays a period in a worker, as it ran and with a
// candidate; GET /admin/what-if/{id} gives progress, then the three columns in all and hour by hour.

describe('what-if replays', () => {
  let t: TestApp;
  let admin: TestUser;
  let from: string;
  let to: string;
  before(async () => {
    const email = uniqueEmail('admin');
    t = await createTestApp({ adminEmails: new Set([email]), dispatch: { mode: 'nearest', batchMs: 60, offerTtlMs: 15_000, maxMs: 600_000 } }, { supplySampleIntervalMs: 20 });
    admin = await signUp(t, { role: 'ADMIN', email });
    from = new Date(t.clock.now() - 60_000).toISOString();
    // Two drivers near the pickup, sampled; one rider's ride taken, another's left to wait and cancelled.
    const drivers = [await driverAt(t, near(PICKUP, 0.3)), await driverAt(t, near(PICKUP, 0.6))];
    t.clock.advance(SUPPLY_SAMPLE_MS);
    const rider = await signUp(t);
    const ride = await bookRide(t, rider, { pickupLat: PICKUP.lat, pickupLon: PICKUP.lon, dropLat: PICKUP.lat + 0.05, dropLon: PICKUP.lon });
    const offer = await offerOf(t, drivers[0], ride.id);
    assertOk(await call(t.app, 'POST', `/drivers/me/offers/${offer.offerId}/accept`, { token: drivers[0].token }));
    const other = await signUp(t);
    const cancelled = await bookRide(t, other, { pickupLat: PICKUP.lat, pickupLon: PICKUP.lon, dropLat: PICKUP.lat + 0.05, dropLon: PICKUP.lon });
    assertOk(await call(t.app, 'POST', `/rides/cancel/${cancelled.id}`, { token: other.token }));
    t.clock.advance(SUPPLY_SAMPLE_MS);
    to = new Date(t.clock.now() + 60_000).toISOString();
    // The samples the period's slots took (instances try every 20 ms).
    for (const deadline = Date.now() + 10_000; (await apiOf(t, admin).call(routes.admin.supply, { query: { from, to } })).samples.length < 2; ) {
      assert.ok(Date.now() < deadline, 'samples taken');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  });
  after(() => t.close());

  const finished = async (id: string): Promise<WhatIfJob> => {
    for (const deadline = Date.now() + 60_000; ; ) {
      const job = await apiOf(t, admin).call(routes.admin.whatIfJob, { params: { id } });
      if (job.status !== 'running') return job;
      assert.ok(Date.now() < deadline, `replay ${id} still running at ${job.progress}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };

  test('replays the period as it ran and with a candidate, in the background, and shows the three columns', async () => {
    const started = await apiOf(t, admin).send(routes.admin.whatIf, { body: { from, to, pricing: { ...FIRST_RULES, surgeCap: 1.5 }, dispatch: { mode: 'batched', batchMs: 1000 } } });
    assert.equal(started.status, 202, JSON.stringify(started.body));
    const job = await finished((started.body as WhatIfJob).id);
    assert.equal(job.status, 'done', job.error ?? '');
    assert.equal(job.progress, 1);
    assert.equal(job.inputs.requests, 2);
    assert.ok(job.inputs.samples >= 2);
    assert.equal(job.inputs.candidatePricing, true);
    assert.deepEqual(job.inputs.candidateDispatch, { mode: 'batched', batchMs: 1000, offerTtlSeconds: 15, maxSeconds: 600 });
    assert.deepEqual(job.inputs.asWasDispatch, { mode: 'nearest', batchMs: 60, offerTtlSeconds: 15, maxSeconds: 600 });
    assert.equal(job.inputs.acceptance.offers, 1);
    assert.equal(job.inputs.cancellation.requests, 2);
    const { actual, asWas, candidate } = job.totals!;
    assert.equal(actual.requests, 2);
    assert.equal(actual.matchedShare, 0.5);
    assert.equal(actual.cancellations, 1);
    assert.equal(asWas.requests, 2);
    assert.equal(candidate.requests, 2);
    assert.ok(job.hours.length >= 1 && job.hours.every((hour) => hour.actual && hour.asWas && hour.candidate));
    assert.equal(job.hours.reduce((sum, hour) => sum + hour.actual.requests, 0), 2);
  });

  test('a candidate the pricing rules refuse, a bad period and an unknown job are clear errors; operators only', async () => {
    const api = apiOf(t, admin);
    assert.equal((await api.send(routes.admin.whatIf, { body: { from, to, pricing: { ...FIRST_RULES, surgeFloor: 2, surgeCap: 1 } } })).status, 400);
    assert.equal((await api.send(routes.admin.whatIf, { body: { from: to, to: from } })).status, 400);
    assert.equal((await api.send(routes.admin.whatIf, { body: { from, to, dispatch: { batchMs: 10 } } })).status, 400);
    assert.equal((await api.send(routes.admin.whatIfJob, { params: { id: randomUUID() } })).status, 404);
    assert.equal((await apiOf(t, await signUp(t)).send(routes.admin.whatIf, { body: { from, to } })).status, 403);
  });
});
