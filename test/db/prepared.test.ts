import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import type { DatabaseConnection } from '../../src/db/connect.ts';
import { PreparedStatement, statementNames } from '../../src/db/prepared.ts';
import { migratedDatabase } from '../helpers/app.ts';

// Statements built once and run with named values, on whichever database the suite runs on.

describe('prepared statements', () => {
  let database: Awaited<ReturnType<typeof migratedDatabase>>;
  let connection: DatabaseConnection;
  let next = 0;

  const addUser = new PreparedStatement('test_add_user', (db, p: { email: string; name: string; at: number }) =>
    db
      .insertInto('users')
      // `role` is a constant of the statement; `at` is bound twice.
      .values({ email: p.email, name: p.name, password_hash: 'x', role: 'DRIVER', created_at: p.at, updated_at: p.at })
      .returning(['id', 'email', 'name', 'role', 'created_at', 'updated_at']),
  );
  const usersNamed = new PreparedStatement('test_users_named', (db, p: { name: string }) =>
    db.selectFrom('users').select(['email', 'role']).where('name', '=', p.name).orderBy('id'),
  );

  before(async () => {
    database = await migratedDatabase();
    connection = database.connection;
  });
  after(() => database.close());

  test('binds each value where its name stands, keeps the constants and runs again with other values', async () => {
    const rows = await connection.transactions.run(async (tx) => [
      ...(await addUser.rows(tx.db, { email: `a${next++}@prepared.test`, name: 'prepared', at: 111 })),
      ...(await addUser.rows(tx.db, { email: `b${next++}@prepared.test`, name: 'prepared', at: 222 })),
    ]);
    assert.deepEqual(
      rows.map(({ email, name, role, created_at, updated_at }) => ({ email, name, role, created_at, updated_at })),
      [
        { email: `a${next - 2}@prepared.test`, name: 'prepared', role: 'DRIVER', created_at: 111, updated_at: 111 },
        { email: `b${next - 1}@prepared.test`, name: 'prepared', role: 'DRIVER', created_at: 222, updated_at: 222 },
      ],
    );
    const named = async (name: string) => (await usersNamed.rows(connection.db, { name })).map((row) => ({ ...row }));
    assert.deepEqual(await named('prepared'), [
      { email: `a${next - 2}@prepared.test`, role: 'DRIVER' },
      { email: `b${next - 1}@prepared.test`, role: 'DRIVER' },
    ]);
    assert.deepEqual(await named('nobody'), []);
  });

  test('a failing execution is the caller’s error and leaves the statement usable', async () => {
    const email = `dup${next++}@prepared.test`;
    await connection.transactions.run((tx) => addUser.rows(tx.db, { email, name: 'dup', at: 1 }));
    await assert.rejects(connection.transactions.run((tx) => addUser.rows(tx.db, { email, name: 'dup', at: 2 })));
    const [row] = await connection.transactions.run((tx) => addUser.rows(tx.db, { email: `after${next++}@prepared.test`, name: 'dup', at: 3 }));
    assert.equal(row.created_at, 3);
  });

  test('on PostgreSQL the text runs as a named statement, parsed once per connection; SQLite caches statements by text', async () => {
    await connection.transactions.run((tx) => addUser.rows(tx.db, { email: `named${next++}@prepared.test`, name: 'named', at: 5 }));
    const named = [...statementNames.values()].includes('prepared_test_add_user');
    if (connection.kind === 'sqlite') {
      assert.equal(named, false, 'only PostgreSQL texts are named');
      return;
    }
    assert.ok(named);
    const prepared = await connection.transactions.run(async (tx) => {
      await addUser.rows(tx.db, { email: `named${next++}@prepared.test`, name: 'named', at: 6 });
      const { rows } = await sql<{ name: string }>`select name from pg_prepared_statements`.execute(tx.db);
      return rows.map((row) => row.name);
    });
    assert.ok(prepared.includes('prepared_test_add_user'), `prepared on this connection: ${prepared.join(', ')}`);
  });
});
