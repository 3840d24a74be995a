import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Role } from '../../src/platform/auth/roles.ts';
import { nginxMissing, startNginx, type Nginx } from '../helpers/nginx.ts';
import { productionServicesMissing } from '../helpers/production.ts';
import { signUpOn, startInstances, startServer, type HttpAccount, type Instances, type ServerProcess } from '../helpers/server-process.ts';
import { WatchingClient } from '../helpers/watching-client.ts';

// The shipped deploy/nginx.conf, run by Debian's nginx in front of two real instances.
const skip = nginxMissing ?? (await productionServicesMissing());

const hostPort = (server: ServerProcess) => new URL(server.url).host;

async function api(base: string, method: string, path: string, options: { body?: unknown; token?: string; headers?: Record<string, string> } = {}) {
  const headers: Record<string, string> = { ...options.headers };
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  const response = await fetch(base + path, { method, headers, body: options.body === undefined ? undefined : JSON.stringify(options.body) });
  const text = await response.text();
  const json = response.headers.get('content-type')?.startsWith('application/json');
  return { status: response.status, headers: response.headers, body: json ? JSON.parse(text) : text };
}

async function until(condition: () => boolean, what: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** This instance's open realtime connections, from its metrics (loopback callers need no token). */
async function realtimeConnections(server: ServerProcess): Promise<number> {
  const text = await (await fetch(`${server.url}/metrics`)).text();
  return Number(/^ride_hailing_realtime_connections (\d+)$/m.exec(text)?.[1] ?? 'NaN');
}

describe('the shipped nginx configuration in front of two instances', { skip }, () => {
  let instances: Instances;
  let nginx: Nginx;
  const signUp = (role: Role) => signUpOn(instances.smtp, [{ url: nginx.url } as ServerProcess], role);

  /**
   * The request line an instance logged under the id it answered with (its own: a caller's
   * X-Request-Id, nginx's included, is only logged beside it, as clientRequestId).
   */
  async function loggedRequest(requestId: string): Promise<{ clientRequestId?: string; remoteAddress: string }> {
    const find = () => instances.servers.flatMap((server) => server.output().split('\n')).find((line) => line.includes(`"reqId":"${requestId}"`) && line.includes('remoteAddress'));
    await until(() => find() !== undefined, `the log line of request ${requestId}`, 10_000);
    return JSON.parse(find()!).req;
  }

  before(async () => {
    instances = await startInstances(2, { TRUST_PROXY: '1', MAX_OPEN_RIDES_PER_RIDER: '100' });
    nginx = await startNginx(instances.servers.map(hostPort));
  });
  after(async () => {
    await nginx?.stop();
    await instances?.stop();
  });

  test('REST passes with nginx’s request id and the address nginx saw, never the one a client wrote', async () => {
    const rider = await signUp('RIDER');
    const booked = await api(nginx.url, 'POST', '/rides/book', { token: rider.token, body: { pickupLocation: 'through nginx' }, headers: { 'x-forwarded-for': '203.0.113.7' } });
    assert.equal(booked.status, 200, JSON.stringify(booked.body));
    const logged = await loggedRequest(booked.headers.get('x-request-id')!);
    assert.match(logged.clientRequestId ?? '', /^[0-9a-f]{32}$/, 'nginx’s $request_id reached the service and is logged beside its own id');
    assert.equal(logged.remoteAddress, '127.0.0.1', 'the client’s own X-Forwarded-For was replaced');
    const status = await api(nginx.url, 'GET', `/rides/status/${booked.body.id}`);
    assert.equal(status.status, 200);
    assert.equal(status.body.status, 'REQUESTED');
  });

  test('server-sent events pass unbuffered, with nginx’s request id', async () => {
    const rider = await signUp('RIDER');
    const controller = new AbortController();
    const stream = await fetch(`${nginx.url}/notifications/stream`, { headers: { authorization: `Bearer ${rider.token}` }, signal: controller.signal });
    try {
      assert.equal(stream.status, 200);
      assert.match(stream.headers.get('content-type') ?? '', /^text\/event-stream/);
      const logged = await loggedRequest(stream.headers.get('x-request-id')!);
      assert.match(logged.clientRequestId ?? '', /^[0-9a-f]{32}$/, 'the stream’s location passes nginx’s $request_id too');
      const reader = stream.body!.getReader();
      const booked = await api(nginx.url, 'POST', '/rides/book', { token: rider.token, body: {} });
      assert.equal(booked.status, 200);
      let text = '';
      const deadline = Date.now() + 10_000;
      while (!text.includes('RIDE_REQUESTED')) {
        if (Date.now() > deadline) assert.fail(`no notification event came through nginx: ${text}`);
        const { value, done } = await reader.read();
        if (done) assert.fail(`the stream ended: ${text}`);
        text += new TextDecoder().decode(value);
      }
      assert.match(text, /id: \d+\nevent: notification\ndata: .*RIDE_REQUESTED/);
    } finally {
      controller.abort();
    }
  });

  test('a WebSocket upgrades through nginx, and a client on an instance killed with -9 resumes on the other without a silent gap', async () => {
    const [a, b] = instances.servers;
    const rider = await signUp('RIDER');
    const driver: HttpAccount = await signUp('DRIVER');
    const reread = async () => (await api(nginx.url, 'GET', '/rides/history', { token: rider.token })).body as Array<{ id: number; status: string }>;
    const wsUrl = `${nginx.url.replace('http', 'ws')}/realtime`;
    // nginx alternates between the instances; open connections until each instance holds one.
    const watchers: WatchingClient[] = [];
    try {
      while (watchers.length < 6 && ((await realtimeConnections(a)) === 0 || (await realtimeConnections(b)) === 0)) {
        const watcher = new WatchingClient(wsUrl, rider.token, reread);
        await watcher.start();
        watchers.push(watcher);
      }
      assert.ok((await realtimeConnections(a)) > 0 && (await realtimeConnections(b)) > 0, 'connections on both instances');

      assert.equal((await api(nginx.url, 'PUT', '/drivers/me/location', { token: driver.token, body: { lat: 12.975, lon: 77.5946 } })).status, 200);
      const booked = await api(nginx.url, 'POST', '/rides/book', { token: rider.token, body: { pickupLat: 12.9716, pickupLon: 77.5946, dropLat: 12.9352, dropLon: 77.6245 } });
      assert.equal(booked.status, 200);
      for (const watcher of watchers) await watcher.until(() => watcher.rides.get(booked.body.id) === 'REQUESTED', 'the booking heard on every connection');

      a.child.kill('SIGKILL');
      await a.exited;
      // Every step through nginx, which now finds only B.
      const step = async (body: object) => {
        const reply = await api(nginx.url, 'POST', `/rides/status/${booked.body.id}`, { token: driver.token, body });
        assert.equal(reply.status, 200, JSON.stringify(reply.body));
      };
      await step({ status: 'ACCEPTED', driverId: String(driver.id) });
      await step({ status: 'PICKED', otp: booked.body.startOtp });
      await step({ status: 'COMPLETED', otp: booked.body.endOtp });

      for (const watcher of watchers) {
        await watcher.until(() => watcher.live && watcher.rides.get(booked.body.id) === 'COMPLETED', 'every connection knowing the ride completed');
        assert.deepEqual(watcher.silentGaps, []);
      }
      assert.ok(
        watchers.some((watcher) => watcher.told.includes(1006)),
        'the connection on the killed instance dropped and came back through nginx',
      );
    } finally {
      for (const watcher of watchers) await watcher.stop();
    }
  });
});

describe('a SIGTERM of one of two instances behind the shipped nginx, under load', { skip }, () => {
  let instances: Instances;
  let nginx: Nginx;

  before(async () => {
    instances = await startInstances(2, { TRUST_PROXY: '1', MAX_OPEN_RIDES_PER_RIDER: '100', SHUTDOWN_DELAY_SECONDS: '1' });
    nginx = await startNginx(instances.servers.map(hostPort));
  });
  after(async () => {
    await nginx?.stop();
    await instances?.stop();
  });

  test('gives clients no error, stopping each instance in turn: every booking, status read and cancellation is answered 200', async () => {
    // One client per rider: two bookings of one rider racing on two instances may both lose the slot race (409).
    const riders = await Promise.all(Array.from({ length: 8 }, () => signUpOn(instances.smtp, instances.servers, 'RIDER')));
    const failures: string[] = [];
    const acknowledged: number[] = [];
    let answered = 0;
    let stopping = false;
    const expect200 = async (what: string, request: Promise<{ status: number; body: any }>) => {
      try {
        const reply = await request;
        answered += 1;
        if (reply.status !== 200) failures.push(`${what}: ${reply.status} ${JSON.stringify(reply.body)}`);
        return reply.status === 200 ? reply.body : undefined;
      } catch (error) {
        const { message, cause } = error as Error & { cause?: Error };
        failures.push(`${what}: ${message} ${cause?.message ?? ''}`);
        return undefined;
      }
    };
    // Eight clients, each booking, reading the ride's status and cancelling it, as fast as answers come.
    const client = async (n: number) => {
      const rider = riders[n];
      while (!stopping) {
        const booked = await expect200('book', api(nginx.url, 'POST', '/rides/book', { token: rider.token, body: { pickupLocation: `load ${n}` } }));
        if (!booked) continue;
        acknowledged.push(booked.id);
        await expect200('status', api(nginx.url, 'GET', `/rides/status/${booked.id}`));
        await expect200('cancel', api(nginx.url, 'POST', `/rides/cancel/${booked.id}`, { token: rider.token, body: {} }));
        await expect200('requested', api(nginx.url, 'GET', '/rides/requested?limit=1'));
      }
    };
    const load = Promise.all(Array.from({ length: riders.length }, (_, n) => client(n)));
    const answeredMore = async (count: number) => {
      const target = answered + count;
      await until(() => answered >= target || failures.length > 0, `${count} more answers`);
    };
    try {
      // B stops and a new B starts on its address (a rolling deploy); then A stops.
      await answeredMore(200);
      const [a, b] = instances.servers;
      b.child.kill('SIGTERM');
      assert.equal(await b.exited, 0, b.output());
      await answeredMore(100);
      const replacement = await startServer({ ...instances.env, PORT: new URL(b.url).port });
      instances.servers.push(replacement);
      // nginx tries an address it found dead again after fail_timeout (10 s): A stops only once B serves.
      await until(() => replacement.output().includes('"route":"/rides/') || failures.length > 0, 'the new B serving requests through nginx');
      await answeredMore(100);
      a.child.kill('SIGTERM');
      assert.equal(await a.exited, 0, a.output());
      await answeredMore(200);
    } finally {
      stopping = true;
      await load;
    }

    assert.deepEqual(failures, [], `${failures.length} of ${answered} requests failed; nginx: ${nginx.errorLog().split('\n').filter((line) => /\[(error|warn)\]/.test(line)).join('\n')}`);
    for (const id of acknowledged) assert.equal((await api(nginx.url, 'GET', `/rides/status/${id}`)).status, 200, `acknowledged ride ${id}`);
  });
});
