import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { FIRST_RULES } from '../../../src/modules/pricing/pricing.model.ts';
import type { PricingRules } from '../../../src/modules/pricing/pricing.schemas.ts';
import { COMPLIANT } from './compliant-rules.ts';
import { call } from '../../helpers/app.ts';
import { signUp } from '../../helpers/factories.ts';
import { accept, assertError, assertOk, bookRide } from '../../helpers/rides.ts';
import { auditOf, operatorApp, type OperatorApp } from './operator.ts';

// Compliance profiles through HTTP: a version naming IN-MVAG-2025 cannot be saved while it breaks a
// rule; GET /admin/compliance lists the rides of a period that break one.


describe('operator API: compliance', () => {
  let op: OperatorApp;
  before(async () => {
    op = await operatorApp();
  });
  after(() => op.t.close());

  test('a version naming IN-MVAG-2025 that breaks a rule is refused with the rule named, and nothing is saved', async () => {
    const { t, admin } = op;
    const broken: [string, PricingRules][] = [
      ['surge-between-half-and-double', { ...COMPLIANT, surgeCap: 2.5 }],
      ['base-covers-dead-mileage', { ...COMPLIANT, fares: FIRST_RULES.fares }],
      ['rider-cancellation-penalty', { ...COMPLIANT, cancellation: FIRST_RULES.cancellation }],
      ['driver-cancellation-penalty', { ...COMPLIANT, driverCancellation: { share: 0.2, min: 0, max: 100 } }],
      ['driver-keeps-80-percent', { ...COMPLIANT, driverShare: 0.7 }],
    ];
    for (const [rule, body] of broken) {
      const reply = await call(t.app, 'PUT', '/admin/pricing', { token: admin.token, body });
      assertError(reply, 400, 'COMPLIANCE_VIOLATION');
      assert.match(reply.body.message, new RegExp(`IN-MVAG-2025: .*${rule}`), reply.body.message);
    }
    // The same numbers without the profile are a version like any other.
    assert.equal((await call(t.app, 'GET', '/admin/pricing', { token: admin.token })).body.versions.length, 1);
    assert.deepEqual(await auditOf(t, admin, 'pricing', 2), []);
  });

  test('the rides of a period are checked against the version each was priced with; those that break a rule are listed with it', async () => {
    const { t, admin } = op;
    const from = new Date(t.clock.now()).toISOString();
    const rider = await signUp(t);
    const driver = await signUp(t, { role: 'DRIVER' });
    // Under version 1: its base covers no kilometres, and its rider fee is 20 % of the fare (at least ₹20).
    const old = await bookRide(t, rider);
    assertOk(await accept(t, driver, old.id));
    const cancelled = await call(t.app, 'POST', `/rides/cancel/${old.id}`, { token: rider.token });
    assertOk(cancelled);
    const fee = cancelled.body.cancellationFee;
    assert.ok(fee > Math.min(100, Math.round(old.fare * 0.1)), 'version 1 charges more than the guidelines allow');

    const saved = await call(t.app, 'PUT', '/admin/pricing', { token: admin.token, body: COMPLIANT });
    assertOk(saved);
    const compliant = await bookRide(t, rider);
    assert.equal(compliant.pricingVersion, saved.body.version);
    t.clock.advance(1000);
    const to = new Date(t.clock.now()).toISOString();

    const reply = await call(t.app, 'GET', `/admin/compliance?from=${from}&to=${to}`, { token: admin.token });
    assertOk(reply);
    assert.equal(reply.body.profile, 'IN-MVAG-2025');
    assert.equal(reply.body.ridesChecked, 2);
    assert.deepEqual(
      reply.body.breaches.map((b: { rideId: number; pricingVersion: number; rule: string }) => [b.rideId, b.pricingVersion, b.rule]),
      [
        [old.id, 1, 'base-covers-dead-mileage'],
        [old.id, 1, 'rider-cancellation-penalty'],
      ],
    );
    assert.match(reply.body.breaches[1].problem, new RegExp(`fee ₹${fee} is above`));
    // A period before any ride holds none.
    const empty = await call(t.app, 'GET', `/admin/compliance?from=2020-01-01T00:00:00Z&to=2020-02-01T00:00:00Z`, { token: admin.token });
    assert.deepEqual({ checked: empty.body.ridesChecked, breaches: empty.body.breaches }, { checked: 0, breaches: [] });
  });

  test('the report is for operators, over a period that makes sense', async () => {
    const { t, admin } = op;
    const rider = await signUp(t);
    assertError(await call(t.app, 'GET', '/admin/compliance?from=2026-01-01T00:00:00Z&to=2026-01-02T00:00:00Z', { token: rider.token }), 403);
    assertError(await call(t.app, 'GET', '/admin/compliance?from=2026-01-01T00:00:00Z&to=2026-01-02T00:00:00Z'), 401);
    assertError(await call(t.app, 'GET', '/admin/compliance?from=2026-01-02T00:00:00Z&to=2026-01-01T00:00:00Z', { token: admin.token }), 400);
    assertError(await call(t.app, 'GET', '/admin/compliance?from=2026-01-01T00:00:00Z&to=2026-06-01T00:00:00Z', { token: admin.token }), 400);
    assertError(await call(t.app, 'GET', '/admin/compliance?from=2026-01-01T00:00:00Z&to=2026-01-02T00:00:00Z&profile=EU', { token: admin.token }), 400);
    assertError(await call(t.app, 'GET', '/admin/compliance?to=2026-01-02T00:00:00Z', { token: admin.token }), 400);
  });
});
