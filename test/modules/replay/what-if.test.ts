import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { routes } from '../../../src/contract/routes.ts';
import type { PricingVersion, WhatIfBody, WhatIfJob } from '../../../src/contract/types.ts';
import { FIRST_RULES } from '../../../src/modules/pricing/pricing.model.ts';
import { SUPPLY_SAMPLE_MS } from '../../../src/modules/replay/supply-samples.ts';
import { apiOf } from '../../helpers/api.ts';
import { call, createTestApp, type TestApp } from '../../helpers/app.ts';
import { driverAt, eventually, near, offerOf, PICKUP } from '../../helpers/dispatch.ts';
import { signUp, uniqueEmail, type TestUser } from '../../helpers/factories.ts';
import { assertOk, bookRide } from '../../helpers/rides.ts';

// decisions.md "What-if replay": POST /admin/what-if replays a period in a worker, as it ran and with a
// candidate; GET /admin/what-if/{id} gives progress, then the three columns in all and hour by hour.

/** Waits for the period's slots to have their samples (the test apps' instances try every 20 ms). */
const samplesTaken = (t: TestApp, admin: TestUser, from: string, to: string) =>
  eventually(async () => ((await apiOf(t, admin).call(routes.admin.supply, { query: { from, to } })).samples.length >= 2 ? true : undefined), 'samples taken', 10_000);

/** Waits for a replay to end, and requires it to have finished rather than failed. */
async function finishedReplay(t: TestApp, admin: TestUser, id: string): Promise<WhatIfJob> {
  const job = await eventually(async () => {
    const polled = await apiOf(t, admin).call(routes.admin.whatIfJob, { params: { id } });
    return polled.status === 'running' ? undefined : polled;
  }, `replay ${id} to end`, 60_000);
  assert.equal(job.status, 'done', job.error ?? '');
  return job;
}

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
    await samplesTaken(t, admin, from, to);
  });
  after(() => t.close());

  const finished = (id: string) => finishedReplay(t, admin, id);

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

describe('what-if candidates', () => {
  let t: TestApp;
  let admin: TestUser;
  let from: string;
  let to: string;
  before(async () => {
    const email = uniqueEmail('admin');
    t = await createTestApp({ adminEmails: new Set([email]), dispatch: { mode: 'nearest', batchMs: 60, offerTtlMs: 15_000, maxMs: 600_000 } }, { supplySampleIntervalMs: 20 });
    admin = await signUp(t, { role: 'ADMIN', email });
    from = new Date(t.clock.now() - 60_000).toISOString();
    // One driver near the pickup takes the first ride; five more riders ask there ten seconds apart
    // while nobody is free: the zone surges for them (more riders waiting than drivers free).
    const driver = await driverAt(t, near(PICKUP, 0.3));
    t.clock.advance(SUPPLY_SAMPLE_MS);
    const first = await bookRide(t, await signUp(t), { pickupLat: PICKUP.lat, pickupLon: PICKUP.lon, dropLat: PICKUP.lat + 0.05, dropLon: PICKUP.lon });
    const offer = await offerOf(t, driver, first.id);
    assertOk(await call(t.app, 'POST', `/drivers/me/offers/${offer.offerId}/accept`, { token: driver.token }));
    for (let i = 0; i < 5; i++) {
      t.clock.advance(10_000);
      await bookRide(t, await signUp(t), { pickupLat: PICKUP.lat, pickupLon: PICKUP.lon, dropLat: PICKUP.lat + 0.05, dropLon: PICKUP.lon });
    }
    t.clock.advance(SUPPLY_SAMPLE_MS);
    to = new Date(t.clock.now() + 60_000).toISOString();
    await samplesTaken(t, admin, from, to);
  });
  after(() => t.close());

  const finished = (id: string) => finishedReplay(t, admin, id);
  const replay = async (body: Omit<WhatIfBody, 'from' | 'to'>): Promise<WhatIfJob> => {
    const started = await apiOf(t, admin).send(routes.admin.whatIf, { body: { from, to, ...body } });
    assert.equal(started.status, 202, JSON.stringify(started.body));
    return finished((started.body as WhatIfJob).id);
  };

  test('a surge cap of 1 takes the surge away from the candidate and changes nothing else the period did', async () => {
    const { asWas, candidate } = (await replay({ pricing: { ...FIRST_RULES, surgeCap: 1 } })).totals!;
    assert.ok(asWas.surgedShare! >= 0.5, `as was, the riders who asked while the driver was busy were quoted a surge (${asWas.surgedShare})`);
    assert.equal(candidate.surgedShare, 0);
    // The one ride matched was asked before anyone waited: the same driver, way and fare either way.
    const unsurged = ({ surgedShare: _surged, ...rest }: typeof asWas) => rest;
    assert.deepEqual(unsurged(candidate), unsurged(asWas));
    assert.equal(asWas.requests, 6);
    assert.ok(asWas.matchedShare! > 0 && asWas.meanFare !== null, 'a ride was matched, so fares and ways are compared');
  });

  test('a candidate of the settings in force replays exactly as was; minute-long rounds that give up after 10 s leave fewer riders waiting, so fewer quoted a surge', async () => {
    const same = (await replay({ pricing: FIRST_RULES, dispatch: { mode: 'nearest', batchMs: 60 } })).totals!;
    assert.deepEqual(same.candidate, same.asWas);
    const job = await replay({ dispatch: { mode: 'batched', batchMs: 60_000, maxSeconds: 10 } });
    assert.deepEqual(job.inputs.candidateDispatch, { mode: 'batched', batchMs: 60_000, offerTtlSeconds: 15, maxSeconds: 10 });
    const { asWas, candidate } = job.totals!;
    assert.equal(candidate.requests, asWas.requests);
    assert.ok(candidate.surgedShare! < asWas.surgedShare!, `surged ${candidate.surgedShare} < ${asWas.surgedShare}`);
  });

  test('a pricing version saved citing a finished replay keeps its id and figures in its audit entry; an unknown or unfinished replay is refused', async () => {
    const api = apiOf(t, admin);
    const capped = { ...FIRST_RULES, surgeCap: 1 };
    const job = await replay({ pricing: capped });
    const saved = await api.send(routes.admin.savePricing, { body: { ...capped, whatIfId: job.id } });
    assert.equal(saved.status, 200, JSON.stringify(saved.body));
    const { version, surgeCap } = saved.body as PricingVersion;
    assert.equal(surgeCap, 1);
    assert.equal('whatIfId' in (saved.body as object), false, 'the citation is no part of the rules');
    const [entry] = (await api.call(routes.admin.audit, { query: { targetType: 'pricing', targetId: String(version) } })).items;
    assert.deepEqual((entry.after as { whatIf: unknown }).whatIf, { id: job.id, from: job.from, to: job.to, candidatePricing: 'this version', candidateDispatch: job.inputs.candidateDispatch, totals: job.totals });
    assert.equal((await api.call(routes.admin.pricing)).current.version, version);
    // The same replay cited by rules other than the ones it tried: the entry says so.
    const other = await api.call(routes.admin.savePricing, { body: { ...capped, surgeCap: 1.2, whatIfId: job.id } });
    const [otherEntry] = (await api.call(routes.admin.audit, { query: { targetType: 'pricing', targetId: String(other.version) } })).items;
    assert.equal((otherEntry.after as { whatIf: { candidatePricing: string } }).whatIf.candidatePricing, 'other rules');

    const unknown = await api.send(routes.admin.savePricing, { body: { ...capped, whatIfId: randomUUID() } });
    assert.equal(unknown.status, 400);
    assert.equal((unknown.body as { code: string }).code, 'WHAT_IF_NOT_FOUND');
    // Cited the moment it starts: its thread has yet to load, let alone replay the period.
    const started = await api.send(routes.admin.whatIf, { body: { from, to, pricing: capped } });
    const running = await api.send(routes.admin.savePricing, { body: { ...capped, whatIfId: (started.body as WhatIfJob).id } });
    assert.equal(running.status, 400);
    assert.equal((running.body as { code: string }).code, 'WHAT_IF_NOT_DONE');
    assert.equal((await api.call(routes.admin.pricing)).current.version, other.version, 'no version saved by a refused citation');
    await finished((started.body as WhatIfJob).id);
  });
});
