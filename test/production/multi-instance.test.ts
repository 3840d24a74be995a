import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import type { Role } from '../../src/platform/auth/roles.ts';
import { privateRedisDatabase, productionServicesMissing } from '../helpers/production.ts';
import { signUpOn, startInstances, type Instances, type ServerProcess } from '../helpers/server-process.ts';

const missing = await productionServicesMissing();
const RATE_LIMIT = 60;

/** One client of the API, seen by the service as coming from its own IP (one trusted proxy hop: TRUST_PROXY=1). */
function client(ip = `10.${randomBytes(3).join('.')}`) {
  return async (base: string, method: string, path: string, body?: unknown, token?: string) => {
    const headers: Record<string, string> = { 'x-forwarded-for': ip };
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (token) headers.authorization = `Bearer ${token}`;
    const response = await fetch(base + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : undefined };
  };
}

describe('two instances behind one address', { skip: missing }, () => {
  let instances: Instances;
  let a: ServerProcess;
  let b: ServerProcess;

  // Sign-ups come from the local address: /auth has its own budget, off here, so they use none of a client's.
  const signUp = (role: Role) => signUpOn(instances.smtp, [a, b], role);

  /** A new rider's ride booked on A and accepted by a new driver on B. */
  const rideAcceptedAcross = async (trip: object) => {
    const api = client();
    const rider = await signUp('RIDER');
    const driver = await signUp('DRIVER');
    const booked = await api(a.url, 'POST', '/rides/book', trip, rider.token);
    assert.equal(booked.status, 200);
    const accepted = await api(b.url, 'POST', `/rides/status/${booked.body.id}`, { status: 'ACCEPTED', driverId: String(driver.id) }, driver.token);
    assert.equal(accepted.status, 200);
    return { api, rider, driver, ride: booked.body as { id: number; startOtp: string } };
  };

  before(async () => {
    // The two start at once: that both come up shows the migration lock let exactly one of them migrate.
    instances = await startInstances(2, {
      REDIS_URL: await privateRedisDatabase(9),
      TRUST_PROXY: '1',
      RATE_LIMIT_PER_MINUTE: String(RATE_LIMIT),
      // A few riders book many rides under load here; the open-ride limit has tests of its own.
      MAX_OPEN_RIDES_PER_RIDER: '100',
    });
    [a, b] = instances.servers;
  });

  after(() => instances?.stop());

  test('a ride booked on A is accepted on B and followed on either', async () => {
    const { api, driver, ride } = await rideAcceptedAcross({ pickupLat: 12.97, pickupLon: 77.59, dropLat: 12.93, dropLon: 77.62 });
    assert.equal((await api(a.url, 'GET', `/rides/status/${ride.id}`)).body.status, 'ACCEPTED');
    const picked = await api(a.url, 'POST', `/rides/status/${ride.id}`, { status: 'PICKED', otp: ride.startOtp }, driver.token);
    assert.equal(picked.status, 200);
  });

  test('a position posted on A is found by nearby search on B, and followed live on B', async () => {
    const { api, driver, ride } = await rideAcceptedAcross({ pickupLat: 28.61, pickupLon: 77.2, dropLat: 28.55, dropLon: 77.1 });
    const posted = await api(a.url, 'POST', `/rides/location/${ride.id}`, { lat: 28.6101, lon: 77.2002 }, driver.token);
    assert.equal(posted.status, 200);
    const nearby = await api(b.url, 'GET', '/rides/drivers/nearby?lat=28.61&lon=77.2&radiusKm=1');
    assert.deepEqual(nearby.body.map((d: { driverId: number }) => d.driverId), [driver.id]);
    assert.equal(nearby.body[0].lat, 28.6101);
    const status = await api(b.url, 'GET', `/rides/status/${ride.id}`);
    assert.equal(status.body.driverLat, 28.6101, 'B shows the position A received before any batch write');
  });

  test('a change on B reaches what A already showed, without waiting for its cache to expire', async () => {
    const { api, rider, driver, ride } = await rideAcceptedAcross({ pickupLat: 12.97, pickupLon: 77.59, dropLat: 12.93, dropLon: 77.62 });
    assert.equal((await api(a.url, 'POST', `/rides/location/${ride.id}`, { lat: 12.9705, lon: 77.5905 }, driver.token)).status, 200);
    assert.equal((await api(a.url, 'GET', `/rides/status/${ride.id}`)).body.status, 'ACCEPTED');
    assert.equal((await api(b.url, 'POST', `/rides/cancel/${ride.id}`, {}, rider.token)).status, 200);
    // The bus carries the change to A in about a millisecond; allow a little slack, far below the 5 s expiry.
    const deadline = Date.now() + 500;
    let status = await api(a.url, 'GET', `/rides/status/${ride.id}`);
    while (status.body.status !== 'CANCELLED' && Date.now() < deadline) status = await api(a.url, 'GET', `/rides/status/${ride.id}`);
    assert.equal(status.body.status, 'CANCELLED');
    assert.equal((await api(a.url, 'POST', `/rides/location/${ride.id}`, { lat: 12.971, lon: 77.591 }, driver.token)).status, 409);
  });

  test('a notification produced on A reaches a live stream on B', async () => {
    const rider = await signUp('RIDER');
    const stream = await fetch(`${b.url}/notifications/stream`, { headers: { authorization: `Bearer ${rider.token}` } });
    assert.equal(stream.status, 200);
    const reader = stream.body!.getReader();
    const booked = await client()(a.url, 'POST', '/rides/book', {}, rider.token);
    let text = '';
    const deadline = Date.now() + 5000;
    while (!text.includes('RIDE_REQUESTED') && Date.now() < deadline) {
      const { value, done } = await Promise.race([
        reader.read(),
        new Promise<{ value: undefined; done: true }>((resolve) => setTimeout(() => resolve({ value: undefined, done: true }), deadline - Date.now())),
      ]);
      if (done) break;
      text += new TextDecoder().decode(value);
    }
    await reader.cancel();
    assert.match(text, /event: notification/);
    const event = JSON.parse(/data: (.*RIDE_REQUESTED.*)/.exec(text)![1]);
    assert.equal(event.rideId, booked.body.id);
    assert.equal(event.userId, rider.id);
  });

  test('a booking retried on the other instance with the same Idempotency-Key makes one ride', async () => {
    const rider = await signUp('RIDER');
    const book = (base: string) =>
      fetch(`${base}/rides/book`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${rider.token}`, 'idempotency-key': 'across-instances' },
        body: JSON.stringify({ pickupLocation: 'either instance' }),
      }).then(async (response) => ({ status: response.status, body: (await response.json()) as { id: number } }));
    const replies = await Promise.all([a.url, b.url, a.url, b.url].map(book));
    assert.deepEqual(replies.map((reply) => reply.status), [200, 200, 200, 200]);
    assert.equal(new Set(replies.map((reply) => reply.body.id)).size, 1);
    const history = await client()(b.url, 'GET', '/rides/history', undefined, rider.token);
    assert.deepEqual(history.body.map((ride: { id: number }) => ride.id), [replies[0].body.id]);
  });

  test('racing accepts spread over both instances have exactly one winner', async () => {
    const rider = await signUp('RIDER');
    const drivers = await Promise.all(Array.from({ length: 8 }, () => signUp('DRIVER')));
    for (let round = 0; round < 3; round++) {
      const booked = await client()(a.url, 'POST', '/rides/book', {}, rider.token);
      const replies = await Promise.all(
        drivers.map((driver, i) =>
          client()(i % 2 ? a.url : b.url, 'POST', `/rides/status/${booked.body.id}`, { status: 'ACCEPTED', driverId: String(driver.id) }, driver.token),
        ),
      );
      const winners = replies.filter((r) => r.status === 200);
      assert.equal(winners.length, 1, `round ${round}: ${replies.map((r) => r.status).join(',')}`);
      assert.equal(replies.filter((r) => r.status === 409).length, drivers.length - 1);
      // Free the winner for the next round.
      const winner = drivers[replies.indexOf(winners[0])];
      assert.equal((await client()(b.url, 'POST', `/rides/cancel/${booked.body.id}`, {}, winner.token)).status, 200);
    }
  });

  test('rate limits count requests on both instances together', async () => {
    // Stay clear of a window boundary so the whole burst falls in one minute.
    const intoMinute = Date.now() % 60_000;
    if (intoMinute > 50_000) await new Promise((resolve) => setTimeout(resolve, 60_500 - intoMinute));
    const api = client();
    const statuses: number[] = [];
    for (let i = 0; i < RATE_LIMIT + 2; i++) statuses.push((await api(i % 2 ? a.url : b.url, 'GET', '/rides/requested?limit=1')).status);
    assert.deepEqual(statuses.slice(0, RATE_LIMIT), Array(RATE_LIMIT).fill(200));
    assert.deepEqual(statuses.slice(RATE_LIMIT), [429, 429], 'the budget is shared, not per instance');
  });

  test('killing one instance mid-load loses no acknowledged booking', async () => {
    const riders = await Promise.all(Array.from({ length: 4 }, () => signUp('RIDER')));
    const acknowledged: number[] = [];
    let failures = 0;
    let sent = 0;
    const worker = async (w: number) => {
      const api = client();
      const rider = riders[w % riders.length];
      while (sent < 120) {
        sent += 1;
        const target = sent % 2 ? a.url : b.url;
        try {
          const reply = await api(target, 'POST', '/rides/book', { pickupLocation: `load ${sent}` }, rider.token);
          if (reply.status === 200) acknowledged.push(reply.body.id);
          else failures += 1;
        } catch {
          failures += 1; // B died under this request: never acknowledged
        }
        if (sent === 40) b.child.kill('SIGKILL');
      }
    };
    await Promise.all([0, 1, 2, 3, 4, 5].map(worker));
    await b.exited;
    assert.ok(acknowledged.length > 40, `${acknowledged.length} acknowledged, ${failures} failed`);
    assert.ok(failures > 0, 'some requests hit the killed instance');
    for (const id of acknowledged) {
      const status = await client()(a.url, 'GET', `/rides/status/${id}`);
      assert.equal(status.status, 200, `acknowledged ride ${id} is missing`);
      assert.equal(status.body.status, 'REQUESTED');
    }
  });
});
