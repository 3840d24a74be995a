import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Redis } from 'ioredis';
import pino from 'pino';
import { systemClock } from '../../src/platform/clock.ts';
import type { Attachment, Interruption } from '../../src/platform/realtime/hub.ts';
import { RedisHub } from '../../src/platform/realtime/redis-hub.ts';
import { createRedis, untilReady } from '../../src/platform/redis.ts';
import { call, createTestApp, type TestApp } from '../helpers/app.ts';
import { signUp, type TestUser } from '../helpers/factories.ts';
import { PrivateRedis, redisServerMissing } from '../helpers/redis-server.ts';
import { accept, assertError, assertOk, bookRide, northOf, setStatus, TRIP } from '../helpers/rides.ts';
import { WatchingClient } from '../helpers/watching-client.ts';
import { realtimeUrl } from '../realtime/socket-client.ts';

async function eventually(check: () => Promise<boolean>, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not reached in time');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('when Redis goes away', { skip: redisServerMissing }, () => {
  let redis: PrivateRedis;
  let t: TestApp;
  let driver: TestUser;
  let rider: TestUser;

  before(async () => {
    redis = await PrivateRedis.start();
    t = await createTestApp({ redisUrl: redis.url });
    driver = await signUp(t, { role: 'DRIVER' });
    rider = await signUp(t, { role: 'RIDER' });
  });
  after(async () => {
    await t.close();
    await redis.remove();
  });

  test('/ready turns red, Redis-bound requests get a quick 503, the rest keeps working, and all recovers', async () => {
    assert.equal((await call(t.app, 'GET', '/ready')).status, 200);
    assert.equal((await call(t.app, 'PUT', '/drivers/me/location', { token: driver.token, body: { lat: 19.07, lon: 72.87 } })).status, 200);
    // A ride under way when Redis goes: its codes are checked against counters of this instance meanwhile.
    const underway = await bookRide(t, rider);
    assertOk(await accept(t, driver, underway.id));

    await redis.stop();

    await eventually(async () => (await call(t.app, 'GET', '/ready')).status === 503);
    const ready = await call(t.app, 'GET', '/ready');
    assert.deepEqual(ready.body.checks, { database: 'ok', redis: 'unavailable' });
    assert.equal((await call(t.app, 'GET', '/health')).status, 200, 'the process itself is alive: balancers keep sending it requests');

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

    await redis.restart();
    await eventually(async () => (await call(t.app, 'GET', '/ready')).status === 200);
    assert.equal((await call(t.app, 'PUT', '/drivers/me/location', { token: driver.token, body: { lat: 19.07, lon: 72.87 } })).status, 200);
    const after = await call(t.app, 'GET', '/rides/drivers/nearby?lat=19.07&lon=72.87');
    assert.equal(after.status, 200);
    assert.deepEqual(after.body.map((d: { driverId: number }) => d.driverId), [driver.id]);
  });
});

/**
 * How Redis goes and comes back: stopped (killed, back with what it had written), frozen (SIGSTOP:
 * connections stay open, nothing answers) and restarted empty (killed, back with nothing).
 */
const OUTAGES = {
  stopped: { persistent: true, begin: (redis: PrivateRedis) => redis.stop(), end: (redis: PrivateRedis) => redis.restart() },
  frozen: { persistent: false, begin: async (redis: PrivateRedis) => redis.freeze(), end: async (redis: PrivateRedis) => redis.thaw() },
  'restarted empty': { persistent: false, begin: (redis: PrivateRedis) => redis.stop(), end: (redis: PrivateRedis) => redis.restart() },
} as const;

for (const [kind, outage] of Object.entries(OUTAGES)) {
  describe(`a whole ride while Redis is ${kind}`, { skip: redisServerMissing }, () => {
    let redis: PrivateRedis;
    let t: TestApp;

    before(async () => {
      redis = await PrivateRedis.start({ persistent: outage.persistent });
      t = await createTestApp({ redisUrl: redis.url });
    });
    after(async () => {
      await t?.close();
      await redis?.remove();
    });

    test('every acknowledged write holds, and the rider’s socket is told instead of skipping a message', async () => {
      const rider = await signUp(t, { role: 'RIDER' });
      const driver = await signUp(t, { role: 'DRIVER' });
      const reported = northOf({ lat: TRIP.pickupLat, lon: TRIP.pickupLon }, 500);
      assertOk(await call(t.app, 'PUT', '/drivers/me/location', { token: driver.token, body: reported }), 'position before the outage');
      const reread = async () => {
        const [active, history] = await Promise.all([call(t.app, 'GET', '/rides/active', { token: rider.token }), call(t.app, 'GET', '/rides/history', { token: rider.token })]);
        return [...history.body, ...active.body] as Array<{ id: number; status: string }>;
      };
      const watcher = new WatchingClient(await realtimeUrl(t.app), rider.token, reread);
      await watcher.start();
      try {
        const booked = await bookRide(t, rider);
        await watcher.until(() => watcher.rides.get(booked.id) === 'REQUESTED', 'the booking heard live');

        await outage.begin(redis);

        // Everything PostgreSQL holds keeps working, each answer acknowledged.
        const accepted = await accept(t, driver, booked.id);
        assertOk(accepted, 'accept during the outage');
        assert.ok(accepted.body.pickupDistanceKm > 0.4 && accepted.body.pickupDistanceKm < 0.6, `pickup distance from the stored position: ${accepted.body.pickupDistanceKm}`);
        const status = await call(t.app, 'GET', `/rides/status/${booked.id}`, { token: rider.token });
        assertOk(status, 'the ride’s status during the outage');
        assert.equal(status.body.status, 'ACCEPTED');
        assert.equal(status.body.driverLat, reported.lat, 'the driver’s position from the database');
        const active = await call(t.app, 'GET', '/rides/active', { token: rider.token });
        assertOk(active, 'active rides during the outage');
        assert.deepEqual(active.body.map((ride: { id: number }) => ride.id), [booked.id]);
        assertOk(await setStatus(t, driver, booked.id, { status: 'PICKED', otp: booked.startOtp }), 'pickup during the outage');
        const completed = await setStatus(t, driver, booked.id, { status: 'COMPLETED', otp: booked.endOtp });
        assertOk(completed, 'completion during the outage');
        const history = await call(t.app, 'GET', '/rides/history', { token: rider.token });
        assertOk(history, 'history during the outage');
        const ended = history.body.find((ride: { id: number }) => ride.id === booked.id);
        assert.equal(ended.status, 'COMPLETED');
        assert.deepEqual([ended.driverLat, ended.driverLon], [reported.lat, reported.lon], 'the ride ends where the driver was last seen');
        const second = await call(t.app, 'POST', '/rides/book', { token: rider.token, body: { pickupLocation: 'booked during the outage' } });
        assertOk(second, 'a booking during the outage');

        // Told at once, while Redis is still away: closed with 1013 (or a resync), never left waiting for what will not come.
        await watcher.until(() => watcher.told.some((what) => what === 1013 || what === 'resync'), 'the socket told of the outage');
        // Orchestration sees it; balancers (/health) keep the instance.
        await eventually(async () => (await call(t.app, 'GET', '/ready')).status === 503);
        assert.equal((await call(t.app, 'GET', '/health')).status, 200);

        await outage.end(redis);
        await eventually(async () => (await call(t.app, 'GET', '/ready')).status === 200);

        // Back: the client resumes, is told to resync (or replayed all it missed), and knows the ride ended.
        await watcher.until(() => watcher.live && watcher.rides.get(booked.id) === 'COMPLETED' && watcher.rides.get(second.body.id) === 'REQUESTED', 'the client knowing the ride ended');
        assert.deepEqual(watcher.silentGaps, [], 'no number skipped without the client being told');

        // Nothing acknowledged was lost.
        const finalView = await reread();
        assert.equal(finalView.find((ride) => ride.id === booked.id)?.status, 'COMPLETED');
        assert.equal(finalView.find((ride) => ride.id === second.body.id)?.status, 'REQUESTED');
      } finally {
        await watcher.stop();
      }
    });
  });
}

describe('the realtime hub across a Redis outage, on two instances', { skip: redisServerMissing }, () => {
  type Messages = { note: { n: number } };
  let redis: PrivateRedis;
  const clients: Redis[] = [];
  const hubs: Array<RedisHub<Messages>> = [];
  const log = pino({ level: 'silent' });

  const instance = async () => {
    const command = createRedis(redis.url, 'hub:', log);
    const subscriber = createRedis(redis.url, 'hub:', log, { subscriber: true });
    clients.push(command, subscriber);
    await untilReady(command);
    const hub = new RedisHub<Messages>(command, subscriber, 'hub:', systemClock, log);
    hubs.push(hub);
    return hub;
  };

  before(async () => {
    // Persistent: Redis comes back with the numbers it had, so only the hub can say what was lost.
    redis = await PrivateRedis.start({ persistent: true });
  });
  after(async () => {
    for (const hub of hubs) await hub.close();
    for (const client of clients) client.disconnect();
    await redis.remove();
  });

  test('a message A could not send makes every resume from before it a resync, and a connection attached on B meanwhile is told', async () => {
    const a = await instance();
    const b = await instance();
    const interruptions: Interruption[] = [];
    const first = await b.attach(1, () => {}, undefined, (interruption) => interruptions.push(interruption));
    await a.send(1, 'note', { n: 1 });

    await redis.stop();
    await waitFor(() => interruptions.some((i) => i.kind === 'unavailable'), 'B interrupts its connection at once');
    first.detach();
    await assert.rejects(a.send(1, 'note', { n: 2 }), /Redis/);
    assert.equal(a.delivery.unsent, 1);

    await redis.restart();
    // A client reconnecting to B as soon as it can: told, whether it attached before A skipped the lost number or after.
    let told = false;
    let resumed: Attachment<Messages> | undefined;
    while (!resumed) {
      resumed = await b.attach(1, () => {}, first.seq, (interruption) => (told ||= interruption.kind === 'resync')).catch(() => undefined);
      if (!resumed) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    told ||= resumed.resync;
    await waitFor(() => told, 'the resumed connection is told to resync');
    resumed.detach();

    // A has skipped the lost number (that is what the resync told): a resume after the message that
    // did go out must not cross the hole either.
    const later = await b.attach(1, () => {}, first.seq + 1);
    assert.equal(later.resync, true, 'the message that could not be sent left a hole a resume cannot cross');
    later.detach();
  });
});

async function waitFor(condition: () => boolean | Promise<boolean>, what: string, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
