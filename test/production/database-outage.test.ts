import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import pg from 'pg';
import { call, createTestApp, freshDatabase, type TestApp } from '../helpers/app.ts';
import { signUp, type TestUser } from '../helpers/factories.ts';

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
