import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { FIRST_RULES } from '../../../src/modules/pricing/pricing.model.ts';
import type { PricingRules } from '../../../src/modules/pricing/pricing.schemas.ts';
import { call } from '../../helpers/app.ts';
import { signUp, uniqueEmail } from '../../helpers/factories.ts';
import { productionServicesMissing } from '../../helpers/production.ts';
import { accept, assertError, assertOk, bookRide, riderFee } from '../../helpers/rides.ts';
import { http, signUpOn, startInstances, type Instances, type ServerProcess } from '../../helpers/server-process.ts';
import { auditOf, operatorApp, type OperatorApp } from './operator.ts';

/** Version 2: a dearer mini (flag fare +30) and a steeper cancellation rule. */
const V2: PricingRules = {
  ...FIRST_RULES,
  fares: { ...FIRST_RULES.fares, mini: { ...FIRST_RULES.fares.mini, base: 80, minimum: 100 } },
  cancellation: { ...FIRST_RULES.cancellation, ACCEPTED: { share: 0.5, min: 10, max: 500 } },
};
// 10 km of mini at city speed: 25 minutes, no surge.
const ESTIMATE = '/rides/estimate?distanceKm=10&rideType=mini';
const V1_FARE = 50 + 12 * 10 + 2 * 25;
const V2_FARE = V1_FARE + 30;

describe('operator API: pricing', () => {
  let op: OperatorApp;
  before(async () => {
    op = await operatorApp();
  });
  after(() => op.t.close());

  test('version 1 is in force at first, and the history holds it', async () => {
    const reply = await call(op.t.app, 'GET', '/admin/pricing', { token: op.admin.token });
    assertOk(reply);
    const { createdAt, createdBy, version, ...rules } = reply.body.current;
    assert.deepEqual({ version, createdBy, rules }, { version: 1, createdBy: null, rules: FIRST_RULES });
    assert.equal(typeof createdAt, 'string');
    assert.deepEqual(reply.body.versions, [reply.body.current]);
  });

  test('rules that do not hold together, or are incomplete, are refused and change nothing', async () => {
    const { t, admin } = op;
    const bad: unknown[] = [
      { ...FIRST_RULES, fares: { ...FIRST_RULES.fares, bike: { base: 50, perKm: 6, perMinute: 1, minimum: 30 } } },
      { ...FIRST_RULES, cancellation: { ...FIRST_RULES.cancellation, PICKED: { share: 0.4, min: 200, max: 100 } } },
      { ...FIRST_RULES, surgeCap: 9 },
      { ...FIRST_RULES, surgeCap: 0.5 },
      { ...FIRST_RULES, fares: { mini: FIRST_RULES.fares.mini } },
      { fares: FIRST_RULES.fares },
      { ...FIRST_RULES, fares: { ...FIRST_RULES.fares, suv: { ...FIRST_RULES.fares.suv, perKm: -1 } } },
    ];
    for (const body of bad) assertError(await call(t.app, 'PUT', '/admin/pricing', { token: admin.token, body }), 400);
    assert.equal((await call(t.app, 'GET', '/admin/pricing', { token: admin.token })).body.versions.length, 1);
    assert.deepEqual(await auditOf(t, admin, 'pricing', 2), []);
  });

  test('a new version is quoted at once; a ride booked before keeps version 1, its fare and its cancellation rule', async () => {
    const { t, admin } = op;
    assert.equal((await call(t.app, 'GET', ESTIMATE)).body.fare, V1_FARE);
    const rider = await signUp(t);
    const driver = await signUp(t, { role: 'DRIVER' });
    const old = await bookRide(t, rider);

    const reply = await call(t.app, 'PUT', '/admin/pricing', { token: admin.token, body: V2 });
    assertOk(reply);
    assert.equal(reply.body.version, 2);
    assert.equal(reply.body.createdBy, admin.id);
    assert.equal((await call(t.app, 'GET', ESTIMATE)).body.fare, V2_FARE);
    const history = (await call(t.app, 'GET', '/admin/pricing', { token: admin.token })).body;
    assert.equal(history.current.version, 2);
    assert.deepEqual(history.versions.map((v: { version: number }) => v.version), [2, 1]);

    assertOk(await accept(t, driver, old.id));
    const cancelled = await call(t.app, 'POST', `/rides/cancel/${old.id}`, { token: rider.token });
    assertOk(cancelled);
    assert.deepEqual({ pricingVersion: cancelled.body.pricingVersion, fare: cancelled.body.fare }, { pricingVersion: 1, fare: old.fare });
    assert.equal(cancelled.body.cancellationFee, riderFee('ACCEPTED', old.fare), "version 1's rule, not version 2's");
    assert.equal((await bookRide(t, rider)).pricingVersion, 2);

    const [entry, ...more] = await auditOf(t, admin, 'pricing', 2);
    assert.deepEqual(more, []);
    assert.equal(entry.action, 'pricing.update');
    assert.equal(entry.actorId, admin.id);
    assert.equal(entry.requestId, reply.headers['x-request-id']);
    assert.deepEqual(entry.before, { version: 1, ...FIRST_RULES });
    assert.deepEqual(entry.after, { version: 2, ...V2 });
  });

  test('operators saving at once each get a version of their own or a 409, and each version one audit entry', async () => {
    const { t, admin } = op;
    const versionsBefore = (await call(t.app, 'GET', '/admin/pricing', { token: admin.token })).body.versions.length;
    const surges = [1.5, 1.6, 1.7, 1.8];
    const replies = await Promise.all(surges.map((surgeCap) => call(t.app, 'PUT', '/admin/pricing', { token: admin.token, body: { ...V2, surgeCap } })));
    const made = replies.filter((reply) => reply.status === 200);
    for (const reply of replies) if (reply.status !== 200) assertError(reply, 409, 'PRICING_CHANGED');
    assert.ok(made.length >= 1);
    const history = (await call(t.app, 'GET', '/admin/pricing', { token: admin.token })).body.versions;
    assert.equal(history.length, versionsBefore + made.length);
    for (const reply of made) {
      const entries = await auditOf(t, admin, 'pricing', reply.body.version);
      assert.equal(entries.length, 1);
      assert.equal(entries[0].before.version, reply.body.version - 1);
      assert.equal(entries[0].after.surgeCap, reply.body.surgeCap);
      // What the entry says was replaced is what the version before really held.
      const replaced = history.find((v: { version: number }) => v.version === reply.body.version - 1);
      assert.equal(entries[0].before.surgeCap, replaced.surgeCap);
    }
  });

  test('properties the rules do not name are dropped before the version is stored: the version is the server\'s everywhere', async () => {
    const { t, admin } = op;
    const next = Math.max(...(await call(t.app, 'GET', '/admin/pricing', { token: admin.token })).body.versions.map((v: { version: number }) => v.version)) + 1;
    const padded = {
      ...V2,
      version: 1,
      createdBy: 999,
      createdAt: '2000-01-01T00:00:00.000Z',
      notes: 'n'.repeat(100_000),
      fares: { ...V2.fares, mini: { ...V2.fares.mini, discount: 0.5 }, helicopter: { base: 1, perKm: 1, perMinute: 1, minimum: 1 } },
      cancellation: { ...V2.cancellation, COMPLETED: { share: 1, min: 0, max: 1 } },
    };
    const reply = await call(t.app, 'PUT', '/admin/pricing', { token: admin.token, body: padded });
    assertOk(reply);
    assert.equal(reply.body.version, next);
    assert.equal(reply.body.createdBy, admin.id);

    const history = await call(t.app, 'GET', '/admin/pricing', { token: admin.token });
    assertOk(history, 'the history still reads');
    assert.equal(history.body.current.version, next);
    const [entry] = await auditOf(t, admin, 'pricing', next);
    assert.deepEqual(entry.after, { version: next, ...V2 }, 'the stored rules are exactly the named ones');
    assert.equal(entry.before.version, next - 1);
  });
});

const missing = await productionServicesMissing();

describe('pricing on two instances (PostgreSQL and Redis)', { skip: missing }, () => {
  let instances: Instances;
  let a: ServerProcess;
  let b: ServerProcess;
  const adminEmail = uniqueEmail('operator');

  const quote = async (server: ServerProcess) => (await http(`${server.url}${ESTIMATE}`)).body.fare as number;

  before(async () => {
    instances = await startInstances(2, { ADMIN_EMAILS: adminEmail, DISPATCH_MODE: 'broadcast', WEB_APPS: 'false' });
    [a, b] = instances.servers;
  });
  after(() => instances?.stop());

  test('version 2 made on A is quoted by both within a second; a ride booked under version 1 keeps it on both', async () => {
    const admin = await signUpOn(instances.smtp, a, 'ADMIN', adminEmail);
    const rider = await signUpOn(instances.smtp, b, 'USER');
    const driver = await signUpOn(instances.smtp, b, 'DRIVER');
    assert.deepEqual([await quote(a), await quote(b)], [V1_FARE, V1_FARE]);
    const old = await http(`${b.url}/rides/book`, 'POST', { pickupLat: 12.9716, pickupLon: 77.5946, dropLat: 12.9352, dropLon: 77.6245 }, rider.token);
    assert.equal(old.status, 200);
    assert.equal(old.body.pricingVersion, 1);

    const made = await http(`${a.url}/admin/pricing`, 'PUT', V2, admin.token);
    assert.equal(made.status, 200, JSON.stringify(made.body));
    const saved = Date.now();
    // A second, and half of one more for a machine busy with other tests.
    const deadline = saved + 1_500;
    while ((await quote(b)) !== V2_FARE && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    assert.deepEqual([await quote(a), await quote(b)], [V2_FARE, V2_FARE], `B still quoted version 1 after ${Date.now() - saved} ms`);
    assert.equal((await http(`${a.url}/admin/pricing`, 'GET', undefined, admin.token)).body.current.version, 2);

    assert.equal((await http(`${b.url}/rides/status/${old.body.id}`, 'POST', { status: 'ACCEPTED', driverId: String(driver.id) }, driver.token)).status, 200);
    const cancelled = await http(`${a.url}/rides/cancel/${old.body.id}`, 'POST', {}, rider.token);
    assert.equal(cancelled.status, 200);
    assert.deepEqual(
      { pricingVersion: cancelled.body.pricingVersion, fare: cancelled.body.fare, fee: cancelled.body.cancellationFee },
      { pricingVersion: 1, fare: old.body.fare, fee: riderFee('ACCEPTED', old.body.fare) },
    );
    const booked = await http(`${b.url}/rides/book`, 'POST', {}, rider.token);
    assert.equal(booked.body.pricingVersion, 2);
  });
});
