import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import pino from 'pino';
import type { DatabaseConnection } from '../../../src/db/connect.ts';
import type { ServiceEvents } from '../../../src/events.ts';
import { FIRST_RULES } from '../../../src/modules/pricing/pricing.model.ts';
import { Pricing } from '../../../src/modules/pricing/pricing.service.ts';
import { systemClock } from '../../../src/platform/clock.ts';
import { MemoryEventBus } from '../../../src/platform/event-bus.ts';
import { call, createTestApp, migratedDatabase, type TestApp } from '../../helpers/app.ts';
import { signUp } from '../../helpers/factories.ts';
import { bookRide } from '../../helpers/rides.ts';

const log = pino({ level: 'silent' });

describe('pricing versions', () => {
  let database: Awaited<ReturnType<typeof migratedDatabase>>;
  let connection: DatabaseConnection;
  before(async () => {
    database = await migratedDatabase();
    connection = database.connection;
    // Version 2 is made by an operator; any user id will do for the row it references.
    await connection.transactions.run((tx) => tx.db.insertInto('users').values({ email: 'op@example.com', name: 'op', password_hash: 'x', role: 'ADMIN', created_at: 0, updated_at: 0 }).execute());
  });
  after(() => database.close());

  test('version 1 holds the documented numbers; a new version reaches another instance within a second, without any event', async () => {
    // Two instances on one database, each with its own (unconnected) bus: only the poll can tell the second.
    const first = new Pricing({ db: connection.db, bus: new MemoryEventBus<ServiceEvents>(), clock: systemClock, log });
    const second = new Pricing({ db: connection.db, bus: new MemoryEventBus<ServiceEvents>(), clock: systemClock, log });
    await Promise.all([first.start(), second.start()]);
    try {
      assert.deepEqual(first.current(), { version: 1, rules: FIRST_RULES });
      const operator = (await connection.db.selectFrom('users').select('id').executeTakeFirstOrThrow()).id;
      const dearer = { ...FIRST_RULES, fares: { ...FIRST_RULES.fares, mini: { ...FIRST_RULES.fares.mini, base: 60 } } };
      const made = await connection.transactions.run((tx) => first.create(tx, dearer, operator));
      assert.equal(made.version, 2);
      assert.equal(first.current().version, 2, 'at once where it was made');
      const deadline = Date.now() + 1_500;
      while (second.current().version !== 2 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
      assert.equal(second.current().version, 2, 'within a second elsewhere');
      assert.equal((await second.rules(1)).fares.mini.base, 50, 'the old version is still there to explain old rides');
      await assert.rejects(connection.transactions.run((tx) => first.create(tx, { ...FIRST_RULES, cancellation: { ...FIRST_RULES.cancellation, PICKED: { share: 0.4, min: 200, max: 100 } } }, operator)), /min must not exceed/);
    } finally {
      first.stop();
      second.stop();
    }
  });
});

describe('a ride records the pricing version it was priced with', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp();
  });
  after(() => t.close());

  test('bookings under version 1 say so', async () => {
    const rider = await signUp(t);
    const ride = await bookRide(t, rider);
    assert.equal(ride.pricingVersion, 1);
    const status = await call(t.app, 'GET', `/rides/status/${ride.id}`, { token: rider.token });
    assert.equal(status.body.pricingVersion, 1);
  });
});
