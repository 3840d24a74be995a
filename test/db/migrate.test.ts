import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, test } from 'node:test';
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
