import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, test } from 'node:test';
import { sql } from 'kysely';
import pg from 'pg';
import { loadConfig } from '../../src/config.ts';
import { connectDatabase } from '../../src/db/connect.ts';
import { migrateToLatest } from '../../src/db/migrate.ts';
import { freshDatabase } from '../helpers/app.ts';

const postgresUrl = process.env.DATABASE_URL?.startsWith('postgres') ? process.env.DATABASE_URL : undefined;

// Test files run in parallel, each making and dropping its own schemas. Kysely's migrator used to
// introspect the tables of every schema, and a schema dropped meanwhile made that query fail
// (`schema "test_…" does not exist`), which cancelled whole test files.
describe('migrations on PostgreSQL', { skip: postgresUrl ? false : 'DATABASE_URL is not PostgreSQL' }, () => {
  test('migrating one schema is not disturbed by other schemas being created and dropped at the same time', async () => {
    const admin = new pg.Client({ connectionString: postgresUrl });
    await admin.connect();
    let churning = true;
    let churned = 0;
    const churn = (async () => {
      while (churning) {
        const schema = `churn_${randomBytes(5).toString('hex')}`;
        await admin.query(`create schema ${schema}; create table ${schema}.t (id serial primary key, a text, b bigint, c integer default 1)`);
        await admin.query(`drop schema ${schema} cascade`);
        churned++;
      }
    })();
    try {
      for (let i = 0; i < 6; i++) {
        const database = await freshDatabase(postgresUrl);
        const { db } = connectDatabase(loadConfig({ DATABASE_URL: database.url, JWT_SECRET: 'x'.repeat(32) }).database);
        try {
          await migrateToLatest(db, 'postgres');
          await migrateToLatest(db, 'postgres'); // a restart finds everything in place
        } finally {
          await db.destroy();
          await database.drop();
        }
      }
    } finally {
      churning = false;
      await churn;
      await admin.end();
    }
    assert.ok(churned > 10, `other schemas came and went meanwhile (${churned})`);
  });
});

describe('upgrades', () => {
  test('deletion requests made before their time was kept get their settings\' last change as that time', async () => {
    const database = await freshDatabase();
    const connection = connectDatabase(loadConfig({ DATABASE_URL: database.url, JWT_SECRET: 'x'.repeat(32) }).database);
    try {
      await connection.migrate('2026-11-25-22-overview-indexes');
      await connection.transactions.run(async ({ db }) => {
        for (const [id, requested] of [[1, 1], [2, 0]]) {
          await sql`insert into users (id, email, name, password_hash, role, created_at, updated_at) values (${id}, ${`u${id}@example.com`}, 'U', 'x', 'USER', 1, 1)`.execute(db);
          await sql`insert into user_settings (user_id, trip_sharing_default, hide_phone_number, emergency_contact, default_payment_method, auto_tip_enabled,
            invoice_email_enabled, map_style, avoid_tolls, avoid_highways, navigation_voice_language, preferred_vehicle_type, ac_preference, quiet_ride,
            delete_account_requested, created_at, updated_at)
            values (${id}, 0, 0, '', 'CASH', 0, 0, 'standard', 0, 0, 'en', 'any', 'any', 0, ${requested}, 100, ${1000 + id})`.execute(db);
        }
      });
      await connection.migrate();
      const rows = await connection.db.selectFrom('user_settings').select(['user_id', 'delete_account_requested_at']).orderBy('user_id').execute();
      assert.deepEqual(
        rows.map((row) => [row.user_id, row.delete_account_requested_at === null ? null : Number(row.delete_account_requested_at)]),
        [[1, 1001], [2, null]],
      );
    } finally {
      await connection.destroy();
      await database.drop();
    }
  });

  test('a migration that lands after later-named ones ran is run then, not refused', async () => {
    // As when two branches land in turn: the database ran every migration but one named earlier than others.
    const database = await freshDatabase();
    const connection = connectDatabase(loadConfig({ DATABASE_URL: database.url, JWT_SECRET: 'x'.repeat(32) }).database);
    try {
      await connection.migrate();
      await connection.transactions.run(async ({ db }) => {
        await sql`drop table detour_cells`.execute(db);
        await sql`delete from kysely_migration where name = '2026-11-29-41-detour-cells'`.execute(db);
      });
      await connection.migrate();
      const { rows } = await sql<{ n: number }>`select count(*) as n from detour_cells`.execute(connection.db);
      assert.equal(Number(rows[0].n), 0, 'the table is back');
    } finally {
      await connection.destroy();
      await database.drop();
    }
  });
});
