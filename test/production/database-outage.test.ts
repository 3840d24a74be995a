import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import pg from 'pg';
import { call, createTestApp, freshDatabase, type TestApp } from '../helpers/app.ts';
import { signUp, type TestUser } from '../helpers/factories.ts';
import { assertError, TRIP } from '../helpers/rides.ts';

const postgresUrl = process.env.DATABASE_URL?.startsWith('postgres') ? process.env.DATABASE_URL : undefined;

describe('when PostgreSQL drops the connections', { skip: postgresUrl ? undefined : 'runs on PostgreSQL (DATABASE_URL)' }, () => {
  const applicationName = `outage_${randomBytes(4).toString('hex')}`;
  let database: Awaited<ReturnType<typeof freshDatabase>>;
  let t: TestApp;
  let user: TestUser;

  before(async () => {
    database = await freshDatabase(postgresUrl);
    const url = new URL(database.url);
    url.searchParams.set('application_name', applicationName);
    t = await createTestApp({ database: { kind: 'postgres', url: url.toString() } });
    user = await signUp(t);
  });
  after(async () => {
    await t.close();
    await database.drop();
  });

  test('requests answer 503 instead of crashing, and the service carries on with new connections', async () => {
    assert.equal((await call(t.app, 'GET', '/user-settings', { token: user.token })).status, 200);
    // What a database restart looks like to the pool: every connection of this app is terminated.
    const admin = new pg.Client({ connectionString: postgresUrl });
    await admin.connect();
    const { rowCount } = await admin.query('select pg_terminate_backend(pid) from pg_stat_activity where application_name = $1', [applicationName]);
    await admin.end();
    assert.ok(rowCount! > 0, 'the app had connections to terminate');

    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) statuses.push((await call(t.app, 'GET', '/user-settings', { token: user.token })).status);
    assert.ok(statuses.every((status) => status === 200 || status === 503), `only 200 or 503: ${statuses.join(',')}`);
    assert.equal(statuses.at(-1), 200, 'new connections serve again');
    assert.equal((await call(t.app, 'GET', '/ready')).status, 200);
  });
});

describe('when PostgreSQL refuses new connections (too_many_connections)', { skip: postgresUrl ? undefined : 'runs on PostgreSQL (DATABASE_URL)' }, () => {
  // A role at its CONNECTION LIMIT is refused with the same code (53300) as a server at max_connections,
  // without filling the server every other test shares.
  const role = `limited_${randomBytes(4).toString('hex')}`;
  let database: Awaited<ReturnType<typeof freshDatabase>>;
  let t: TestApp;
  let rider: TestUser;
  const admin = async (statement: string) => {
    const client = new pg.Client({ connectionString: postgresUrl });
    await client.connect();
    try {
      return await client.query(statement);
    } finally {
      await client.end();
    }
  };

  before(async () => {
    database = await freshDatabase(postgresUrl);
    const url = new URL(database.url);
    await admin(`create role ${role} login`);
    await admin(`grant all on schema ${url.searchParams.get('options')!.split('=')[1]} to ${role}`);
    url.username = role;
    url.searchParams.set('application_name', role);
    t = await createTestApp({ database: { kind: 'postgres', url: url.toString() } });
    rider = await signUp(t);
  });
  after(async () => {
    await t.close();
    await database.drop();
    await admin(`drop role ${role}`);
  });

  test('reads and bookings answer 503 with Retry-After, never 500, and succeed once connections are free', async () => {
    await admin(`alter role ${role} connection limit 0`);
    // The pooled connections were let in before the limit; without them every request needs a new one.
    await admin(`select pg_terminate_backend(pid) from pg_stat_activity where usename = '${role}'`);
    const booking = { token: rider.token, headers: { 'idempotency-key': randomBytes(8).toString('hex') }, body: { pickupLocation: 'MG Road', dropLocation: 'Koramangala', ...TRIP } };

    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) statuses.push((await call(t.app, 'GET', '/user-settings', { token: rider.token })).status);
    const read = await call(t.app, 'GET', '/user-settings', { token: rider.token });
    assertError(read, 503, 'DATABASE_UNAVAILABLE');
    assert.equal(read.headers['retry-after'], '1');
    assert.ok(statuses.every((status) => status === 503), `only 503 while refused: ${statuses.join(',')}`);

    // The booking is tried again for a moment before its rider is told, and told 503, not 500.
    const refused = await call(t.app, 'POST', '/rides/book', booking);
    assertError(refused, 503, 'DATABASE_UNAVAILABLE');
    assert.equal(refused.headers['retry-after'], '1');

    await admin(`alter role ${role} connection limit -1`);
    const booked = await call(t.app, 'POST', '/rides/book', booking);
    assert.equal(booked.status, 200, JSON.stringify(booked.body));
    assert.equal((await call(t.app, 'GET', '/user-settings', { token: rider.token })).status, 200);
  });
});
