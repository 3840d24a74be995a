import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import { loadConfig } from '../../../src/config.ts';
import { connectDatabase } from '../../../src/db/connect.ts';
import { FIRST_RULES } from '../../../src/modules/pricing/pricing.model.ts';
import type { PricingRules } from '../../../src/modules/pricing/pricing.schemas.ts';
import { call, createTestApp, freshDatabase } from '../../helpers/app.ts';
import { signUp } from '../../helpers/factories.ts';
import { advanceToKolkataTime, assertError, assertOk, bookRide } from '../../helpers/rides.ts';
import { operatorApp, type OperatorApp } from '../admin/operator.ts';

// Version 2 of the fare policy through HTTP: the operator's document, the public versions, quotes.

const NIGHT = { start: '23:00', end: '05:00', multiplier: 1.5 };
const V2: PricingRules = {
  ...FIRST_RULES,
  fares: { ...FIRST_RULES.fares, mini: { base: 60, baseKm: 3, perKm: 14, perMinute: 2, minimum: 80, waiting: { freeMinutes: 3, perMinute: 2 }, night: NIGHT, perStop: 25 } },
  surgeFloor: 1,
  driverShare: 0.85,
  tollsAndParking: { capPerRide: 500 },
  driverCancellation: { share: 0.1, min: 0, max: 100 },
  validCancellationReasons: ['Vehicle breakdown', 'Rider unreachable'],
};
// 10 km of mini: 25 minutes at city speed; the base covers 3 km: 60 + 14 × 7 + 2 × 25 = 208.
const ESTIMATE = '/rides/estimate?distanceKm=10&rideType=mini';


describe('fare policy v2 through HTTP', () => {
  let op: OperatorApp;
  before(async () => {
    op = await operatorApp();
  });
  after(() => op.t.close());

  test('anyone may read a pricing version without a token, but not who made it; an unknown one is 404', async () => {
    const { t } = op;
    const reply = await call(t.app, 'GET', '/pricing/versions/1');
    assertOk(reply);
    const { version, createdAt, ...rules } = reply.body;
    assert.deepEqual({ version, rules }, { version: 1, rules: FIRST_RULES });
    assert.equal(typeof createdAt, 'string');
    assert.equal('createdBy' in reply.body, false);
    assertError(await call(t.app, 'GET', '/pricing/versions/999'), 404, 'PRICING_VERSION_NOT_FOUND');
    assertError(await call(t.app, 'GET', '/pricing/versions/first'), 400);
  });

  test('a document that does not hold together is refused: a night time that is not HH:MM, a floor above the cap, a driver penalty min above its max', async () => {
    const { t, admin } = op;
    const bad: unknown[] = [
      { ...V2, fares: { ...V2.fares, mini: { ...V2.fares.mini, night: { ...NIGHT, start: '25:00' } } } },
      { ...V2, surgeFloor: 2.5, surgeCap: 2 },
      { ...V2, driverCancellation: { share: 0.1, min: 50, max: 20 } },
      { ...V2, driverShare: 1.2 },
      { ...V2, compliance: 'EU-2030' },
      { ...V2, fares: { ...V2.fares, mini: { ...V2.fares.mini, waiting: undefined } } },
    ];
    for (const body of bad) assertError(await call(t.app, 'PUT', '/admin/pricing', { token: admin.token, body }), 400);
  });

  test('an operator saves the whole v2 document; quotes charge per km beyond the base kilometres, and the public version shows it', async () => {
    const { t, admin } = op;
    const saved = await call(t.app, 'PUT', '/admin/pricing', { token: admin.token, body: V2 });
    assertOk(saved);
    advanceToKolkataTime(t, 12, 0);
    const quote = (await call(t.app, 'GET', ESTIMATE)).body;
    assert.deepEqual({ fare: quote.fare, baseFare: quote.baseFare, distanceFare: quote.distanceFare, timeFare: quote.timeFare, night: quote.nightMultiplier }, { fare: 208, baseFare: 60, distanceFare: 98, timeFare: 50, night: 1 });
    const published = await call(t.app, 'GET', `/pricing/versions/${saved.body.version}`);
    assertOk(published);
    const { version, createdAt, ...rules } = published.body;
    assert.deepEqual({ version, rules }, { version: saved.body.version, rules: V2 });
    assert.equal(createdAt, saved.body.createdAt);
  });

  test('a trip expected to end in the night window is quoted with the night multiplier', async () => {
    const { t } = op;
    advanceToKolkataTime(t, 22, 40); // 25 minutes of driving: dropped at 23:05
    assert.deepEqual(((b) => [b.fare, b.nightMultiplier])((await call(t.app, 'GET', ESTIMATE)).body), [312, 1.5]);
    advanceToKolkataTime(t, 6, 0);
    assert.equal((await call(t.app, 'GET', ESTIMATE)).body.fare, 208);
  });

});

describe('pricing documents stored before version 2 of the fare policy', () => {
  test('keep meaning what they meant: a version-1 document quotes the same fare, and a ride booked under it keeps its fare', async () => {
    const database = await freshDatabase();
    const config = loadConfig({ DATABASE_URL: database.url, JWT_SECRET: 'x'.repeat(32) }).database;
    const before = connectDatabase(config);
    // An operator's version 2 in the old document: a dearer mini.
    const OLD_V2 = { ...{ fares: { bike: {}, auto: {}, mini: {}, sedan: {}, suv: {} } }, surgeCap: 2, cancellation: { ACCEPTED: { share: 0.2, min: 20, max: 60 }, PICKED: { share: 0.4, min: 50, max: 180 } } };
    for (const [type, rate] of Object.entries(FIRST_RULES.fares)) (OLD_V2.fares as Record<string, object>)[type] = { base: rate.base, perKm: rate.perKm, perMinute: rate.perMinute, minimum: rate.minimum };
    OLD_V2.fares.mini = { base: 80, perKm: 12, perMinute: 2, minimum: 100 };
    try {
      await before.migrate('2026-11-27-02-audit-client-request-id');
      await before.transactions.run(async ({ db }) => {
        await sql`insert into users (email, name, password_hash, role, created_at, updated_at) values ('op@example.com', 'Op', 'x', 'ADMIN', 1, 1)`.execute(db);
        await sql`insert into pricing_versions (version, rules, created_at, created_by) values (2, ${JSON.stringify(OLD_V2)}, 1, (select id from users))`.execute(db);
      });
    } finally {
      await before.destroy();
    }
    const t = await createTestApp({ database: config });
    try {
      // Version 2 in force: 80 + 12 × 10 + 2 × 25 = 250, as before the upgrade.
      const quote = (await call(t.app, 'GET', ESTIMATE)).body;
      assert.deepEqual({ fare: quote.fare, night: quote.nightMultiplier }, { fare: 250, night: 1 });
      const rider = await signUp(t);
      const ride = await bookRide(t, rider, { rideType: 'mini' });
      assert.equal(ride.pricingVersion, 2);
      const upgraded = (await call(t.app, 'GET', '/pricing/versions/2')).body;
      assert.deepEqual(
        { mini: upgraded.fares.mini, surgeFloor: upgraded.surgeFloor, tolls: upgraded.tollsAndParking, driver: upgraded.driverCancellation },
        {
          mini: { base: 80, baseKm: 0, perKm: 12, perMinute: 2, minimum: 100, waiting: { freeMinutes: 3, perMinute: 0 }, night: { start: '23:00', end: '05:00', multiplier: 1 }, perStop: 0 },
          surgeFloor: 1,
          tolls: { capPerRide: 0 },
          driver: { share: 0, min: 0, max: 0 },
        },
      );
    } finally {
      await t.close();
      await database.drop();
    }
  });
});
