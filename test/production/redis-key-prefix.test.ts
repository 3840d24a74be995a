import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { Redis } from 'ioredis';
import { call, createTestApp, type TestApp } from '../helpers/app.ts';
import { signUp } from '../helpers/factories.ts';
import { privateRedisDatabase, productionServicesMissing } from '../helpers/production.ts';
import { acceptedRide, TRIP } from '../helpers/rides.ts';

const missing = await productionServicesMissing();

// Two deployments may share one Redis; each then needs its own REDIS_KEY_PREFIX, and that only
// works if every key the service writes carries it.
describe('REDIS_KEY_PREFIX', { skip: missing }, () => {
  const prefix = `edge-${randomBytes(4).toString('hex')}:`;
  let t: TestApp;
  let redis: Redis;

  before(async () => {
    const redisUrl = await privateRedisDatabase(11);
    redis = new Redis(redisUrl);
    t = await createTestApp({ redisUrl, redisKeyPrefix: prefix, rateLimitPerMinute: 1000, authRateLimitPerMinute: 1000 });
  });
  after(async () => {
    await t.close();
    redis.disconnect();
  });

  test('every key and channel the service uses carries the prefix', async () => {
    // Touch every piece of shared state: rate-limit counters, the driver index, the ride-code
    // counter, the insights cache and the event bus.
    const rider = await signUp(t);
    const driver = await signUp(t, { role: 'DRIVER' });
    assert.equal((await call(t.app, 'PUT', '/drivers/me/location', { token: driver.token, body: { lat: TRIP.pickupLat, lon: TRIP.pickupLon } })).status, 200);
    assert.equal((await call(t.app, 'GET', `/rides/drivers/nearby?lat=${TRIP.pickupLat}&lon=${TRIP.pickupLon}`)).status, 200);
    const { booked } = await acceptedRide(t, rider, driver);
    const wrong = booked.startOtp === '0000' ? '1111' : '0000';
    const wrongCode = await call(t.app, 'POST', `/rides/status/${booked.id}`, { token: driver.token, body: { status: 'PICKED', otp: wrong } });
    assert.equal(wrongCode.status, 400);
    assert.equal((await call(t.app, 'GET', '/rides/insights/predictive', { token: rider.token })).status, 200);

    const keys = await redis.keys('*');
    assert.ok(keys.length >= 4, `the service wrote keys: ${keys.join(', ')}`);
    assert.deepEqual(keys.filter((key) => !key.startsWith(prefix)), [], 'keys without the prefix');
    const channels = await redis.pubsub('CHANNELS', `${prefix}*`);
    assert.ok((channels as string[]).length > 0, 'the event bus subscribes under the prefix');
  });
});
