import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { after, before, describe, test } from 'node:test';
import { call, createTestApp, type TestApp } from '../helpers/app.ts';
import { signUp, type TestUser } from '../helpers/factories.ts';
import { accept, assertError, assertOk, bookRide, setStatus } from '../helpers/rides.ts';
import { freePort } from '../helpers/server-process.ts';

const redisMissing = spawnSync('redis-server', ['--version']).error ? 'redis-server is not installed' : undefined;


/** A Redis of this test's own, so stopping it disturbs nobody else. */
async function startRedis(port: number): Promise<ChildProcess> {
  const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'pipe' });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const deadline = Date.now() + 5000;
  while (!output.includes('Ready to accept connections')) {
    if (Date.now() > deadline) throw new Error(`redis-server did not start:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return child;
}

async function eventually(check: () => Promise<boolean>, timeoutMs = 8000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not reached in time');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('when Redis goes away', { skip: redisMissing }, () => {
  let port: number;
  let redis: ChildProcess;
  let t: TestApp;
  let driver: TestUser;
  let rider: TestUser;

  before(async () => {
    port = await freePort();
    redis = await startRedis(port);
    t = await createTestApp({ redisUrl: `redis://127.0.0.1:${port}` });
    driver = await signUp(t, { role: 'DRIVER' });
    rider = await signUp(t, { role: 'RIDER' });
  });
  after(async () => {
    await t.close();
    redis.kill('SIGKILL');
  });

  test('/ready turns red, Redis-bound requests get a quick 503, the rest keeps working, and all recovers', async () => {
    assert.equal((await call(t.app, 'GET', '/ready')).status, 200);
    assert.equal((await call(t.app, 'PUT', '/drivers/me/location', { token: driver.token, body: { lat: 19.07, lon: 72.87 } })).status, 200);
    // A ride under way when Redis goes: its codes are checked against counters of this instance meanwhile.
    const underway = await bookRide(t, rider);
    assertOk(await accept(t, driver, underway.id));

    redis.kill('SIGKILL');
    await once(redis, 'exit');

    await eventually(async () => (await call(t.app, 'GET', '/ready')).status === 503);
    const ready = await call(t.app, 'GET', '/ready');
    assert.deepEqual(ready.body.checks, { database: 'ok', redis: 'unavailable' });
    assert.equal((await call(t.app, 'GET', '/health')).status, 200, 'the process itself is alive');

    const started = Date.now();
    const nearby = await call(t.app, 'GET', '/rides/drivers/nearby?lat=19.07&lon=72.87');
    const location = await call(t.app, 'PUT', '/drivers/me/location', { token: driver.token, body: { lat: 19.07, lon: 72.87 } });
    assert.equal(nearby.status, 503);
    assert.equal(nearby.body.code, 'REDIS_UNAVAILABLE');
    assert.equal(location.status, 503);
    assert.ok(Date.now() - started < 3000, 'answers come at once instead of hanging');

    // Bookings live in the database: they still work, without the shared cache.
    const booked = await call(t.app, 'POST', '/rides/book', { token: rider.token, body: { pickupLocation: 'during the outage' } });
    assert.equal(booked.status, 200);

    // The ride under way is picked up and completed; a wrong code is still refused.
    const wrong = underway.startOtp === '0000' ? '0001' : '0000';
    assertError(await setStatus(t, driver, underway.id, { status: 'PICKED', otp: wrong }), 400, 'OTP_MISMATCH');
    assertOk(await setStatus(t, driver, underway.id, { status: 'PICKED', otp: underway.startOtp }), 'pickup during the outage');
    assertOk(await setStatus(t, driver, underway.id, { status: 'COMPLETED', otp: underway.endOtp }), 'completion during the outage');

    redis = await startRedis(port);
    await eventually(async () => (await call(t.app, 'GET', '/ready')).status === 200);
    assert.equal((await call(t.app, 'PUT', '/drivers/me/location', { token: driver.token, body: { lat: 19.07, lon: 72.87 } })).status, 200);
    const after = await call(t.app, 'GET', '/rides/drivers/nearby?lat=19.07&lon=72.87');
    assert.equal(after.status, 200);
    assert.deepEqual(after.body.map((d: { driverId: number }) => d.driverId), [driver.id]);
  });
});
