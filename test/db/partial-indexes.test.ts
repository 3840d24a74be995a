import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { sql } from 'kysely';
import type { DatabaseConnection } from '../../src/db/connect.ts';
import { takenSlots } from '../../src/modules/rides/booking.repository.ts';
import { migratedDatabase } from '../helpers/app.ts';

// A partial index serves a query only when the query states the index's own condition with the
// same values: bound as parameters, SQLite (and PostgreSQL's generic plans) cannot tell, and the
// booking's open-slot search read every ride the rider had ever booked.

let database: Awaited<ReturnType<typeof migratedDatabase>>;
let connection: DatabaseConnection;

before(async () => {
  database = await migratedDatabase();
  connection = database.connection;
});
after(() => database.close());

test('the open-slot search names the open statuses in its text and uses the partial index of open slots', async () => {
  const query = takenSlots(connection.db, 7).select('open_slot');
  const { sql: text, parameters } = query.compile();
  assert.match(text, /in \('REQUESTED', 'ACCEPTED', 'PICKED'\)/);
  assert.deepEqual(parameters, [7], 'only the rider is bound');
  if (connection.kind !== 'sqlite') return;
  const plan = await sql<{ detail: string }>`explain query plan ${sql.raw(text.replace('?', '7'))}`.execute(connection.db);
  assert.ok(
    plan.rows.some((row) => row.detail.includes('rides_open_slot_per_rider')),
    plan.rows.map((row) => row.detail).join('; '),
  );
});
