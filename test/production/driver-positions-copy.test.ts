import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Redis } from 'ioredis';
import { eventually } from '../helpers/dispatch.ts';
import { productionServicesMissing, REDIS_URL } from '../helpers/production.ts';
import { http, signUpOn, startInstances, type HttpAccount, type Instances, type ServerProcess } from '../helpers/server-process.ts';

const missing = await productionServicesMissing();

/** The value of one metric family (no labels) in the instance's Prometheus answer. */
async function metric(server: ServerProcess, family: string): Promise<number> {
  const text = await (await fetch(`${server.url}/metrics`)).text();
  const line = text.split('\n').find((row) => row.startsWith(`ride_hailing_${family} `));
  assert.ok(line, `${family} is reported`);
  return Number(line.split(' ')[1]);
}

// Each instance answers nearby search, ride views and dispatch from its own copy of the positions in Redis.
describe('driver positions copied to every instance', { skip: missing }, () => {
  let instances: Instances;
  let a: ServerProcess;
  let b: ServerProcess;
  let redis: Redis;
  let prefix: string;
  let driver: HttpAccount;

  const nearbyOn = async (server: ServerProcess, lat: number, lon: number) => {
    const found = await http(`${server.url}/rides/drivers/nearby?lat=${lat}&lon=${lon}&radiusKm=1`);
    assert.equal(found.status, 200, JSON.stringify(found.body));
    return found.body as Array<{ driverId: number; lat: number; lon: number }>;
  };
  /** The driver as nearby search on the server finds it; undefined while not found, or while the copy is catching up (503). */
  const seenOn = async (server: ServerProcess, lat: number, lon: number, driverId: number) => {
    const found = await http(`${server.url}/rides/drivers/nearby?lat=${lat}&lon=${lon}&radiusKm=1`);
    assert.ok(found.status === 200 || (found.status === 503 && found.body.code === 'REDIS_UNAVAILABLE'), JSON.stringify(found.body));
    return found.status === 200 ? (found.body as Array<{ driverId: number; lat: number }>).find((d) => d.driverId === driverId) : undefined;
  };
  const report = async (on: ServerProcess, lat: number, lon: number) =>
    assert.equal((await http(`${on.url}/drivers/me/location`, 'PUT', { lat, lon }, driver.token)).status, 200);

  before(async () => {
    instances = await startInstances(2);
    [a, b] = instances.servers;
    prefix = instances.env.REDIS_KEY_PREFIX;
    redis = new Redis(REDIS_URL);
    driver = await signUpOn(instances.smtp, [a, b], 'DRIVER');
  });
  after(async () => {
    redis.disconnect();
    await instances.stop();
  });

  test('a position reported on A is found by nearby search on B, within a second of the report', async () => {
    await report(a, 26.9124, 75.7873);
    const found = await eventually(async () => (await nearbyOn(b, 26.9124, 75.7873)).find((d) => d.driverId === driver.id), 'the position on B');
    assert.deepEqual([found.lat, found.lon], [26.9124, 75.7873]);
    // A moves, and B follows.
    await report(a, 26.9134, 75.7873);
    await eventually(async () => ((await nearbyOn(b, 26.9134, 75.7873)).find((d) => d.driverId === driver.id)?.lat === 26.9134 ? true : undefined), 'the move on B');
    assert.ok((await metric(b, 'driver_positions_copy_changes_total')) > 0, 'B applied changes from the channel');
    const lag = await metric(b, 'driver_positions_copy_lag_max_seconds');
    assert.ok(lag < 1, `B's copy ran at most ${lag} s behind`);
  });

  test('a change B never heard of is loaded with a snapshot as soon as the next numbered message (a tick or a change) shows the gap', async () => {
    const resyncs = await metric(b, 'driver_positions_copy_resyncs_total');
    // A change written to Redis whose message was lost: numbered, never published.
    const unheard = 987_654_321;
    const now = Date.now();
    await redis
      .multi()
      .hset(`${prefix}drivers:pos`, String(unheard), `26.9,75.8,${now}`)
      .geoadd(`${prefix}drivers:geo`, 75.8, 26.9, String(unheard))
      .zadd(`${prefix}drivers:seen`, now, String(unheard))
      .incr(`${prefix}drivers:changes:seq`)
      .exec();
    // No check that B has not seen it yet: either instance's tick (every 250 ms) is numbered too and may
    // show B the gap before the next line runs. Only a snapshot can bring B a change never published.
    await report(a, 26.9124, 75.7873);
    await eventually(() => seenOn(b, 26.9, 75.8, unheard), 'the unheard change on B');
    assert.ok((await metric(b, 'driver_positions_copy_resyncs_total')) > resyncs, 'B loaded a snapshot');
  });

  test('after its subscription is cut, B catches up with what was reported meanwhile', async () => {
    const name = `${prefix}driver-positions-copy`;
    const clients = String(await redis.client('LIST'))
      .split('\n')
      .filter((line) => line.includes(` name=${name} `));
    assert.equal(clients.length, 2, 'one copy subscription per instance');
    for (const line of clients) await redis.client('KILL', 'ID', /id=(\d+)/.exec(line)![1]);
    await report(a, 26.95, 75.75);
    await eventually(() => seenOn(b, 26.95, 75.75, driver.id), 'the position reported while B was cut off');
  });
});
