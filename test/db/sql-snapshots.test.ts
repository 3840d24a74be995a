import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import {
  DummyDriver,
  Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
  type CompiledQuery,
  type DatabaseConnection,
  type QueryResult,
} from 'kysely';
import type { Database, WriteDb } from '../../src/db/database.ts';
import * as offers from '../../src/modules/dispatch/offers.repository.ts';
import * as drivers from '../../src/modules/drivers/drivers.repository.ts';
import * as payments from '../../src/modules/payments/payments.repository.ts';
import { insertBookings, type Booking } from '../../src/modules/rides/booking.repository.ts';
import * as stats from '../../src/modules/rides/ride-stats.repository.ts';
import * as rides from '../../src/modules/rides/rides.repository.ts';

// The statements of the hot paths as each database receives them, kept as .sql files beside this
// test (test/db/sql-snapshots/<path>.<dialect>.sql) so that a changed query shows in the diff. They
// come from the real repository functions, run on a Kysely whose driver records what it is sent
// (no database needed). After a deliberate change, rewrite them and review the diff:
//   UPDATE_SQL_SNAPSHOTS=1 node --test test/db/sql-snapshots.test.ts
// Nearby search runs no SQL (it reads the driver location index, in memory or in Redis).

const DIR = join(import.meta.dirname, 'sql-snapshots');
const UPDATE = process.env.UPDATE_SQL_SNAPSHOTS === '1';
const DIALECTS = {
  sqlite: { adapter: () => new SqliteAdapter(), compiler: () => new SqliteQueryCompiler(), introspector: (db: Kysely<unknown>) => new SqliteIntrospector(db) },
  postgres: { adapter: () => new PostgresAdapter(), compiler: () => new PostgresQueryCompiler(), introspector: (db: Kysely<unknown>) => new PostgresIntrospector(db) },
};
type Dialect = keyof typeof DIALECTS;

/** A connection that keeps every statement and answers each with one row (a ride, an offer: whatever the caller reads). */
class RecordingConnection implements DatabaseConnection {
  readonly sent: CompiledQuery[] = [];

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    this.sent.push(query);
    return { rows: [{ id: 1, count: 0, rides: 0, riders: 0, drivers: 0, paise: 0 } as R], numAffectedRows: 1n };
  }

  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {}
}

function recordingDb(dialect: Dialect): { db: Kysely<Database>; sent: CompiledQuery[] } {
  const connection = new RecordingConnection();
  const { adapter, compiler, introspector } = DIALECTS[dialect];
  const driver = new (class extends DummyDriver {
    override async acquireConnection() {
      return connection;
    }
  })();
  const db = new Kysely<Database>({ dialect: { createAdapter: adapter, createDriver: () => driver, createQueryCompiler: compiler, createIntrospector: introspector } });
  return { db, sent: connection.sent };
}

const NOW = 1_764_000_000_000;
const write = (db: Kysely<Database>, run: (tx: WriteDb) => Promise<unknown>) => db.transaction().execute(run);

const booking: Booking = {
  ride: {
    rider_id: 7, driver_id: null, status: 'REQUESTED', ride_type: 'SEDAN', pickup_location: 'MG Road', drop_location: 'Indiranagar',
    pickup_lat: 12.975, pickup_lon: 77.606, drop_lat: 12.978, drop_lon: 77.64, pickup_plus_code: null, drop_plus_code: null,
    pickup_zone: '8861892597fffff', pickup_landmark: null, drop_landmark: null, distance_km: 4.8, duration_minutes: 14, surge_multiplier: 1,
    pricing_version: 1, fare: 182, payment_mode: 'CASH', payment_status: 'PENDING', payment_reference: null, start_otp: '1234', end_otp: '5678',
    created_at: NOW, stops: '[]', scheduled_at: null,
  },
  notice: { user_id: 7, title: 'Ride requested', message: 'Looking for a driver', text_name: 'rideRequested', text_values: '{"trip":"unknown","fare":120}', channel: 'in_app', event_type: 'RIDE_REQUESTED', read: 0, status: 'delivered', created_at: NOW, delivered_at: NOW },
};
const position = (driverId: number) => ({ driverId, lat: 12.97, lon: 77.6, updatedAt: NOW, online: true });

/**
 * Each hot path as the steps it takes, in order: a label and the repository calls of that step.
 * Steps that depend on the dialect (the booking) take each dialect's own branch.
 */
const HOT_PATHS: Record<string, { title: string; steps: Array<[string, (db: Kysely<Database>) => Promise<unknown>]> }> = {
  booking: {
    title: 'POST /rides/book: the ride and its first notice (rides/booking.repository.ts; on PostgreSQL one statement for every booking of a batch)',
    steps: [['insertBookings, one booking, at most 3 open rides', (db) => write(db, (tx) => insertBookings(tx, [booking], 3))]],
  },
  accept: {
    title: 'A driver accepts (POST /drivers/me/offers/{id}/accept, POST /rides/status/{id}): the ride, then its offers, in one unit of work',
    steps: [
      ['offers.findOffer: the driver\'s offer', (db) => offers.findOffer(db, 11)],
      ['rides.acceptRide: REQUESTED and the driver on no other ride', (db) => write(db, (tx) => rides.acceptRide(tx, 1, 2, NOW))],
      ['offers.closeForRide: the winner\'s offer accepted, the rest withdrawn', (db) => write(db, (tx) => offers.closeForRide(tx, 1, 2, NOW))],
      ['rides.setPickupDistance', (db) => write(db, (tx) => rides.setPickupDistance(tx, 1, 1.2))],
    ],
  },
  location: {
    title: 'Driver positions (PUT /drivers/me/location, POST /rides/location/{id}, the socket): presence rows in batches, the ride read for its rider',
    steps: [
      ['drivers.upsertPresence: one driver', (db) => write(db, (tx) => drivers.upsertPresence(tx, [position(2)]))],
      ['drivers.upsertPresence: three drivers (a chunk of two, then one)', (db) => write(db, (tx) => drivers.upsertPresence(tx, [position(2), position(3), position(4)]))],
      ['rides.findRideSnapshot: the ride a position is for (cached ≤ 5 s)', (db) => rides.findRideSnapshot(db, 1)],
      ['rides.claimArrivingNotice: the one DRIVER_ARRIVING notice', (db) => write(db, (tx) => rides.claimArrivingNotice(tx, 1, NOW))],
    ],
  },
  offers: {
    title: 'Dispatch rounds and offers: what a round reads, the offer it writes, and the driver\'s answers',
    steps: [
      ['rides.listDispatchable: the open requests of a round', (db) => rides.listDispatchable(db, 500)],
      ['offers.refusals: who declined or let an offer expire', (db) => offers.refusals(db, [1, 2])],
      ['rides.busyDriversAmong: drivers on a ride', (db) => rides.busyDriversAmong(db, [2, 3])],
      ['offers.offeredAmong: drivers holding an offer', (db) => offers.offeredAmong(db, [2, 3])],
      ['offers.insertOffer: the offer copies and (PostgreSQL) locks its ride', (db) => write(db, (tx) => offers.insertOffer(tx, { ride_id: 1, driver_id: 2, pickup_distance_km: 1.2, pickup_eta_minutes: 4, created_at: NOW, expires_at: NOW + 15_000 }))],
      ['rides.countOffer', (db) => write(db, (tx) => rides.countOffer(tx, 1, NOW))],
      ['offers.pendingForDriver: GET /drivers/me/offers', (db) => offers.pendingForDriver(db, 2)],
      ['offers.decline', (db) => write(db, (tx) => offers.decline(tx, 11, 2, 'too far', NOW))],
      ['offers.expireDue: offers whose time ran out', (db) => write(db, (tx) => offers.expireDue(tx, NOW))],
    ],
  },
  overview: {
    title: 'GET /admin/overview: counts from indexed ranges, never a scan of every ride',
    steps: [
      ['stats.bookedSince: today\'s rides per status and completed fares', (db) => stats.bookedSince(db, NOW - 3_600_000)],
      ['stats.waitsSince: the last hour\'s accept and pickup waits', (db) => stats.waitsSince(db, NOW - 3_600_000)],
      ['stats.openRequests', (db) => stats.openRequests(db)],
      ['stats.countBusyDrivers', (db) => stats.countBusyDrivers(db)],
      ['drivers.countOnlineSince', (db) => drivers.countOnlineSince(db, NOW - 120_000)],
      ['payments.completedSince', (db) => payments.completedSince(db, NOW - 3_600_000)],
    ],
  },
};

const KEYWORDS = /^ (select|from|where|and|or|inner join|left join|cross join|on conflict|do update set|set|values|returning|order by|group by|limit|union all|for update)\b/i;

/** The statement one clause a line, indented by its parentheses; quoted text is left as it is. */
function layout(sqlText: string): string {
  let out = '';
  let depth = 0;
  let quote: string | undefined;
  for (let i = 0; i < sqlText.length; i++) {
    const char = sqlText[i];
    if (quote) {
      if (char === quote) quote = undefined;
    } else if (char === "'" || char === '"') quote = char;
    else if (char === '(') depth++;
    else if (char === ')') depth--;
    else if (char === ' ' && KEYWORDS.test(sqlText.slice(i))) {
      out += `\n${'  '.repeat(depth + 1)}`;
      continue;
    }
    out += char;
  }
  return out;
}

const json = (value: unknown) => JSON.stringify(value, (_, item: unknown) => (typeof item === 'bigint' ? item.toString() : item));

async function snapshot(path: string, dialect: Dialect): Promise<string> {
  const { title, steps } = HOT_PATHS[path];
  const lines = [`-- ${title}`, `-- ${dialect}. Written by test/db/sql-snapshots.test.ts; UPDATE_SQL_SNAPSHOTS=1 rewrites it.`];
  for (const [label, run] of steps) {
    const { db, sent } = recordingDb(dialect);
    await run(db);
    lines.push('', `-- ${label}`);
    for (const query of sent) lines.push(`${layout(query.sql)};`, `-- parameters: ${json(query.parameters)}`);
  }
  return `${lines.join('\n')}\n`;
}

describe('SQL snapshots of the hot paths', () => {
  for (const path of Object.keys(HOT_PATHS)) {
    for (const dialect of Object.keys(DIALECTS) as Dialect[]) {
      test(`${path} on ${dialect} sends what ${path}.${dialect}.sql shows`, async () => {
        const file = join(DIR, `${path}.${dialect}.sql`);
        const text = await snapshot(path, dialect);
        if (UPDATE) {
          mkdirSync(DIR, { recursive: true });
          writeFileSync(file, text);
        }
        assert.ok(existsSync(file), `${file} is missing: run UPDATE_SQL_SNAPSHOTS=1 node --test test/db/sql-snapshots.test.ts`);
        assert.equal(text, readFileSync(file, 'utf8'), `the SQL of ${path} on ${dialect} changed: review it, then UPDATE_SQL_SNAPSHOTS=1 node --test test/db/sql-snapshots.test.ts`);
      });
    }
  }

  test('every snapshot file belongs to a hot path', () => {
    const expected = Object.keys(HOT_PATHS).flatMap((path) => Object.keys(DIALECTS).map((dialect) => `${path}.${dialect}.sql`));
    assert.deepEqual(readdirSync(DIR).sort(), expected.sort());
  });

  test('the layout breaks lines at clauses only outside quoted text and keeps every character', () => {
    const text = `select "from" from "rides" where "status" = 'and or where' and "id" in (select "ride_id" from "offers")`;
    assert.equal(layout(text).replace(/\n\s*/g, ' '), text);
    assert.equal(layout(text), `select "from"\n  from "rides"\n  where "status" = 'and or where'\n  and "id" in (select "ride_id"\n    from "offers")`);
  });
});
