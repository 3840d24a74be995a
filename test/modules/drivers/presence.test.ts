import assert from 'node:assert/strict';
import { test } from 'node:test';
import { sql } from 'kysely';
import { loadConfig } from '../../../src/config.ts';
import { connectDatabase } from '../../../src/db/connect.ts';
import * as repository from '../../../src/modules/drivers/drivers.repository.ts';
import { freshDatabase } from '../../helpers/app.ts';

test('stored positions: every driver of a large batch is written, and an older report never overwrites a newer one', async () => {
  const database = await freshDatabase();
  const connection = connectDatabase(loadConfig({ DATABASE_URL: database.url, JWT_SECRET: 'x'.repeat(32) }).database);
  try {
    await connection.migrate();
    // 600 drivers: more than one statement's worth, and not a power of two.
    const ids = Array.from({ length: 600 }, (_, i) => i + 1);
    await connection.transactions.run(async ({ db }) => {
      for (const id of ids) {
        await sql`insert into users (id, email, name, password_hash, role, created_at, updated_at) values (${id}, ${`d${id}@example.com`}, 'D', 'x', 'DRIVER', 1, 1)`.execute(db);
      }
    });
    const entry = (driverId: number, updatedAt: number) => ({ driverId, lat: 12 + driverId / 1000, lon: 77, updatedAt, online: true });
    await connection.transactions.run(({ db }) => repository.upsertPresence(db, ids.map((id) => entry(id, 2_000))));
    await connection.transactions.run(({ db }) => repository.upsertPresence(db, [entry(1, 1_000), entry(2, 3_000)]));
    const rows = await connection.db.selectFrom('driver_presence').select(['driver_id', 'updated_at']).orderBy('driver_id').execute();
    assert.deepEqual(rows.map((row) => row.driver_id), ids);
    assert.equal(Number(rows[0].updated_at), 2_000, 'the older report left the newer one');
    assert.equal(Number(rows[1].updated_at), 3_000, 'the newer report replaced the older one');
    assert.ok(rows.slice(2).every((row) => Number(row.updated_at) === 2_000));
  } finally {
    await connection.destroy();
    await database.drop();
  }
});
