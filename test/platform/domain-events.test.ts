import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { loadConfig } from '../../src/config.ts';
import { connectDatabase, type DatabaseConnection } from '../../src/db/connect.ts';
import type { Tx } from '../../src/db/transaction.ts';
import { DomainEventDispatcher } from '../../src/platform/domain-events.ts';
import { freshDatabase } from '../helpers/app.ts';

// The dispatcher's one rule, on a real unit of work: inUnit handlers in order inside the unit (a
// throw rolls it back), afterCommit handlers in order after it (a throw is logged and goes no further).

type Events = {
  'user.added': { email: string };
  'thing.happened': { n: number };
};

class Warnings {
  readonly lines: Array<{ event: unknown; message: string }> = [];
  #waiting: { count: number; resolve: () => void } | undefined;
  warn = (object: { event?: unknown }, message: string) => {
    this.lines.push({ event: object.event, message });
    if (this.#waiting && this.lines.length >= this.#waiting.count) this.#waiting.resolve();
  };
  /** Settles once `count` lines were written. */
  until(count: number): Promise<void> {
    if (this.lines.length >= count) return Promise.resolve();
    return new Promise((resolve) => (this.#waiting = { count, resolve }));
  }
}

describe('domain events', () => {
  let database: Awaited<ReturnType<typeof freshDatabase>>;
  let connection: DatabaseConnection;
  let next = 0;

  const addUser = (tx: Tx, label: string) =>
    tx.db
      .insertInto('users')
      .values({ email: `${label}-${next++}@events.test`, name: label, password_hash: 'x', role: 'USER', created_at: 0, updated_at: 0 })
      .returning('email')
      .executeTakeFirstOrThrow();
  const exists = async (email: string) => (await connection.db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirst()) !== undefined;

  before(async () => {
    database = await freshDatabase();
    connection = connectDatabase(loadConfig({ DATABASE_URL: database.url, JWT_SECRET: 'x'.repeat(32) }).database);
    await connection.migrate();
  });
  after(async () => {
    await connection.destroy();
    await database.drop();
  });

  test('inUnit handlers run in subscription order inside the unit, afterCommit ones once it committed', async () => {
    const events = new DomainEventDispatcher<Events>(new Warnings());
    const seen: string[] = [];
    const { promise: lastRan, resolve: ran } = Promise.withResolvers<void>();
    events.afterCommit('user.added', async ({ email }) => {
      seen.push(`after1 ${(await exists(email)) ? 'committed' : 'not committed'}`);
      ran();
    });
    events.inUnit('user.added', async (tx, { email }) => {
      seen.push('unit1');
      // The handler writes with the emitter's transaction: what it wrote commits with the unit.
      await addUser(tx, `${email}-echo`);
    });
    events.inUnit('user.added', () => void seen.push('unit2'));
    events.afterCommit('user.added', () => void seen.push('after2'));
    let result: string | undefined;
    await connection.transactions.run(async (tx) => {
      const { email } = await addUser(tx, 'ordered');
      await events.emit(tx, 'user.added', { email });
      seen.push('emitted');
      result = email;
    });
    // afterCommit handlers have been called by the time the unit settles; the first one awaits a read.
    await lastRan;
    assert.deepEqual(seen, ['unit1', 'unit2', 'emitted', 'after2', 'after1 committed']);
    assert.ok(result && (await exists(result)));
  });

  test('a throw inside the unit rolls the unit back, reaches the caller, and no afterCommit handler runs', async () => {
    const events = new DomainEventDispatcher<Events>(new Warnings());
    const after: string[] = [];
    let added: string | undefined;
    events.inUnit('user.added', async (tx) => {
      added = (await addUser(tx, 'handler')).email;
    });
    events.inUnit('user.added', () => {
      throw new Error('refused');
    });
    events.inUnit('user.added', () => assert.fail('a handler after the one that threw must not run'));
    events.afterCommit('user.added', ({ email }) => void after.push(email));
    let emitted: string | undefined;
    await assert.rejects(
      connection.transactions.run(async (tx) => {
        emitted = (await addUser(tx, 'rolled-back')).email;
        await events.emit(tx, 'user.added', { email: emitted });
      }),
      /refused/,
    );
    assert.equal(await exists(emitted!), false);
    assert.equal(await exists(added!), false);
    assert.deepEqual(after, []);
  });

  test('an afterCommit handler that throws is logged with the event name; the others and the caller go on', async () => {
    const warnings = new Warnings();
    const events = new DomainEventDispatcher<Events>(warnings);
    const seen: number[] = [];
    events.afterCommit('thing.happened', ({ n }) => {
      throw new Error(`sync ${n}`);
    });
    events.afterCommit('thing.happened', async ({ n }) => {
      await Promise.resolve();
      throw new Error(`async ${n}`);
    });
    events.afterCommit('thing.happened', ({ n }) => void seen.push(n));
    await connection.transactions.run(async (tx) => {
      await events.emit(tx, 'thing.happened', { n: 1 });
    });
    await events.emitted('thing.happened', { n: 2 });
    await warnings.until(4);
    assert.deepEqual(seen, [1, 2]);
    assert.equal(warnings.lines.length, 4);
    for (const line of warnings.lines) {
      assert.equal(line.event, 'thing.happened');
      assert.match(line.message, /^thing\.happened: /);
    }
  });

  test('an event emitted outside a unit settles once its handlers have, and refuses inUnit handlers', async () => {
    const events = new DomainEventDispatcher<Events>(new Warnings());
    let done = false;
    events.afterCommit('thing.happened', async () => {
      await new Promise((resolve) => setImmediate(resolve));
      done = true;
    });
    await events.emitted('thing.happened', { n: 1 });
    assert.equal(done, true);
    // Nothing subscribed: nothing to do, nothing to fail.
    await events.emitted('user.added', { email: 'nobody' });
    events.inUnit('user.added', () => undefined);
    assert.throws(() => events.emitted('user.added', { email: 'x' }), /inside a unit of work/);
  });

  test('an event outside a unit waits for every handler that answered a promise, whatever the others answered', async () => {
    const events = new DomainEventDispatcher<Events>(new Warnings());
    const done: string[] = [];
    const later = (label: string, turns: number) => async () => {
      for (let turn = 0; turn < turns; turn++) await new Promise((resolve) => setImmediate(resolve));
      done.push(label);
    };
    events.afterCommit('thing.happened', later('slow', 3));
    events.afterCommit('thing.happened', () => void done.push('sync'));
    events.afterCommit('thing.happened', later('slower', 5));
    await events.emitted('thing.happened', { n: 1 });
    assert.deepEqual(done, ['sync', 'slow', 'slower']);
  });

  test('handlers and payloads are typed by the event map', () => {
    const events = new DomainEventDispatcher<Events>(new Warnings());
    events.afterCommit('thing.happened', ({ n }) => void (n satisfies number));
    // @ts-expect-error an event the map does not name
    events.afterCommit('thing.unknown', () => undefined);
    // @ts-expect-error the payload of another event
    events.afterCommit('thing.happened', ({ email }: { email: string }) => void email);
    // @ts-expect-error a payload that does not match the event
    void events.emitted('thing.happened', { email: 'x' }).catch(() => undefined);
  });
});
