import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { privateRedisDatabase, productionServicesMissing } from '../helpers/production.ts';
import { http, signUpOn, startInstances, type Instances, type ServerProcess } from '../helpers/server-process.ts';

// decisions.md "Dispatch" and issue 15: exactly one dispatcher leads across instances, through a
// Redis lease; when its instance dies, another takes over within seconds and no ride is left unoffered.

const missing = await productionServicesMissing();
const PICKUP = { lat: 12.9716, lon: 77.5946 };

describe('the dispatch leader', { skip: missing }, () => {
  let instances: Instances;
  let servers: ServerProcess[];

  before(async () => {
    instances = await startInstances(2, { REDIS_URL: await privateRedisDatabase(12), DISPATCH_MODE: 'batched', DISPATCH_BATCH_MS: '200' });
    servers = instances.servers;
  });

  after(() => instances?.stop());

  const onlineDriver = async (server: ServerProcess, km: number) => {
    const driver = await signUpOn(instances.smtp, server, 'DRIVER');
    assert.equal((await http(`${server.url}/drivers/me/profile`, 'PUT', { vehicleType: 'mini', vehicleNumber: `KA05X${driver.id}` }, driver.token)).status, 200);
    assert.equal((await http(`${server.url}/drivers/me/location`, 'PUT', { lat: PICKUP.lat + km / 111.2, lon: PICKUP.lon }, driver.token)).status, 200);
    return driver;
  };

  const offerFor = async (url: string, driver: { token: string }, rideId: number, timeoutMs: number) => {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      const offers = await http(`${url}/drivers/me/offers`, 'GET', undefined, driver.token);
      const offer = (offers.body as Array<{ rideId: number }>).find((o) => o.rideId === rideId);
      if (offer) return offer;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    assert.fail(`no offer of ride ${rideId} within ${timeoutMs} ms`);
  };

  const leaderIndex = () => {
    const leading = servers.map((server) => server.output().lastIndexOf('"leading":true') > server.output().lastIndexOf('"leading":false'));
    assert.equal(leading.filter(Boolean).length, 1, `exactly one leader: ${leading.join(',')}`);
    return leading.indexOf(true);
  };

  test('one instance leads; when it is killed the other takes over and every open ride is offered', async () => {
    const [a, b] = servers;
    const rider = await signUpOn(instances.smtp, a, 'RIDER');
    const first = await onlineDriver(b, 0.5);
    const booked = await http(`${a.url}/rides/book`, 'POST', { pickupLat: PICKUP.lat, pickupLon: PICKUP.lon, dropLat: PICKUP.lat + 0.05, dropLon: PICKUP.lon }, rider.token);
    assert.equal(booked.status, 200);
    await offerFor(b.url, first, booked.body.id, 5_000);

    const leader = leaderIndex();
    const survivor = servers[1 - leader];
    servers[leader].child.kill('SIGKILL');
    await servers[leader].exited;

    // Booked while nobody leads: offered once the lease (5 s) has passed to the survivor.
    const second = await onlineDriver(survivor, 0.7);
    const other = await signUpOn(instances.smtp, survivor, 'RIDER');
    const waiting = await http(`${survivor.url}/rides/book`, 'POST', { pickupLat: PICKUP.lat, pickupLon: PICKUP.lon, dropLat: PICKUP.lat + 0.05, dropLon: PICKUP.lon }, other.token);
    assert.equal(waiting.status, 200);
    await offerFor(survivor.url, second, waiting.body.id, 10_000);
    assert.match(survivor.output(), /"leading":true/, 'the survivor took the lead');
    // The first ride's offer is still the one and only pending offer of the first driver.
    const offers = await http(`${survivor.url}/drivers/me/offers`, 'GET', undefined, first.token);
    assert.deepEqual((offers.body as Array<{ rideId: number }>).map((o) => o.rideId), [booked.body.id]);
  });
});
