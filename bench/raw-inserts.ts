// The database's own rate of single-row durable inserts, with the service's settings:
// SQLite in WAL with synchronous=FULL on one connection, or PostgreSQL through a pool of the
// service's size with as many concurrent writers as the booking load has connections.
import pg from 'pg';
import { loadConfig } from '../src/config.ts';
import { openSqlite } from '../src/db/connect.ts';

const seconds = Number(process.argv[2] ?? 5);
const config = loadConfig();
const deadline = () => performance.now() + seconds * 1000;
let inserted = 0;
const started = performance.now();

if (config.database.kind === 'sqlite') {
  const database = openSqlite(`${config.database.file}.raw`);
  database.exec('create table if not exists raw_inserts (id integer primary key, payload text not null, created_at integer not null)');
  const insert = database.prepare('insert into raw_inserts (payload, created_at) values (?, ?)');
  const end = deadline();
  while (performance.now() < end) {
    insert.run('{"pickupLocation":"bench"}', Date.now());
    inserted++;
  }
  database.close();
} else {
  const pool = new pg.Pool({ connectionString: config.database.url, max: 10 });
  await pool.query('create table if not exists raw_inserts (id bigserial primary key, payload text not null, created_at bigint not null)');
  const end = deadline();
  await Promise.all(
    Array.from({ length: 50 }, async () => {
      while (performance.now() < end) {
        await pool.query('insert into raw_inserts (payload, created_at) values ($1, $2)', ['{"pickupLocation":"bench"}', Date.now()]);
        inserted++;
      }
    }),
  );
  await pool.end();
}
console.log(JSON.stringify({ insertsPerSecond: inserted / ((performance.now() - started) / 1000) }));
