import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { connectDatabase, type DatabaseConnection } from '../../src/db/connect.ts';
import type { Tx } from '../../src/db/transaction.ts';
import { freshDatabase } from '../helpers/app.ts';
import { loadConfig } from '../../src/config.ts';

// Units of work on whichever database the suite runs on: group commit on SQLite, one
// transaction per unit on PostgreSQL. Both must keep each unit atomic and its own.

describe('units of work', () => {
  let database: Awaited<ReturnType<typeof freshDatabase>>;
  let connection: DatabaseConnection;
  let observer: DatabaseConnection;
  let next = 0;

  const addUser = (tx: Tx, label: string) =>
    tx.db
      .insertInto('users')
      .values({ email: `${label}-${next++}@units.test`, name: label, password_hash: 'x', role: 'USER', created_at: 0, updated_at: 0 })
      .returning('email')
      .executeTakeFirstOrThrow();
  const exists = async (db: DatabaseConnection, email: string) =>
    (await db.db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirst()) !== undefined;

  before(async () => {
    database = await freshDatabase();
    const config = loadConfig({ DATABASE_URL: database.url, JWT_SECRET: 'x'.repeat(32) }).database;
    connection = connectDatabase(config);
    await connection.migrate();
    observer = connectDatabase(config);
  });
  after(async () => {
    await connection.destroy();
    await observer.destroy();
    await database.drop();
  });

  test('many units at once all commit and each gets its own result', async () => {
    const results = await Promise.all(Array.from({ length: 50 }, (_, i) => connection.transactions.run((tx) => addUser(tx, `many${i}`))));
    assert.equal(new Set(results.map((r) => r.email)).size, 50);
    for (const { email } of results) assert.ok(await exists(observer, email));
  });

  test('a failing unit rolls back alone; the units beside it commit', async () => {
    const outcomes = await Promise.allSettled([
      connection.transactions.run((tx) => addUser(tx, 'left')),
      connection.transactions.run(async (tx) => {
        const { email } = await addUser(tx, 'doomed');
        await tx.db.insertInto('users').values({ email, name: 'twice', password_hash: 'x', role: 'USER', created_at: 0, updated_at: 0 }).execute();
      }),
      connection.transactions.run((tx) => addUser(tx, 'right')),
    ]);
    assert.equal(outcomes[0].status, 'fulfilled');
    assert.equal(outcomes[1].status, 'rejected', 'the duplicate e-mail breaks the unique index');
    assert.equal(outcomes[2].status, 'fulfilled');
    assert.ok(await exists(observer, (outcomes[0] as PromiseFulfilledResult<{ email: string }>).value.email));
    assert.ok(await exists(observer, (outcomes[2] as PromiseFulfilledResult<{ email: string }>).value.email));
    const doomed = await observer.db.selectFrom('users').select('id').where('email', 'like', 'doomed-%').execute();
    assert.deepEqual(doomed, [], 'the failed unit left nothing behind');
  });

  test('nothing is visible elsewhere before the unit settles, and after-commit work runs only once committed', async () => {
    const events: string[] = [];
    let email = '';
    const settled = connection.transactions.run(async (tx) => {
      ({ email } = await addUser(tx, 'visible'));
      tx.afterCommit(() => events.push('after commit'));
      events.push(`inside: seen elsewhere ${await exists(observer, email)}`);
    });
    await settled;
    events.push(`settled: seen elsewhere ${await exists(observer, email)}`);
    assert.deepEqual(events, ['inside: seen elsewhere false', 'after commit', 'settled: seen elsewhere true']);
  });

  test('a failed unit runs no after-commit work', async () => {
    let ran = false;
    await assert.rejects(
      connection.transactions.run(async (tx) => {
        tx.afterCommit(() => (ran = true));
        throw new Error('changed my mind');
      }),
      /changed my mind/,
    );
    assert.equal(ran, false);
  });
});
