import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { signUp } from '../helpers/factories.ts';
import { acceptedRide, northOf, pickupOf } from '../helpers/rides.ts';
import { TestSocket, realtimeUrl, type ServerMessage } from './socket-client.ts';

const GOING_AWAY = 1001;
const TOO_SLOW = 4429;

describe('a client that does not read', () => {
  let t: TestApp;
  let dir: string;
  let url: string;
  before(async () => {
    // A long close grace, so the slow client still reads its close frame once it reads again; the
    // driver may send positions as fast as the test can (the test app has no per-driver limit).
    t = await createTestApp({}, { realtime: { maxUnsentBytes: 16 * 1024, closeGraceMs: 60_000, messagesPerSecond: 100_000, floodMessagesPerSecond: 100_000 } });
    // Over a Unix socket the kernel holds about 200 kB between server and client, where loopback TCP
    // grows to several MB: the server's own buffer fills after a thousand messages, not tens of thousands.
    dir = mkdtempSync(join(tmpdir(), 'realtime-'));
    const path = join(dir, 'api.sock');
    await t.app.listen({ path });
    url = `ws+unix:${path}:/realtime`;
  });
  after(async () => {
    await t.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('is closed with 4429 once too much waits for it, while another connection keeps receiving everything', async () => {
    const rider = await signUp(t, { role: 'RIDER' });
    const driver = await signUp(t, { role: 'DRIVER' });
    const slow = await TestSocket.connect(url, rider.token);
    const reader = await TestSocket.connect(url, rider.token);
    const { socket: driverSocket } = await TestSocket.connect(url, driver.token);
    const { booked } = await acceptedRide(t, rider, driver);
    const accepted = (m: ServerMessage) => m.type === 'ride.updated' && m.data.status === 'ACCEPTED';
    await Promise.all([slow.socket.waitFor(accepted, 'ACCEPTED'), reader.socket.waitFor(accepted, 'ACCEPTED')]);
    slow.socket.ws.pause();

    // About 140 bytes each: twice what the kernel and the 16 kB bound hold together. Sent in rounds
    // the reading connection drains, as a client that reads would.
    const count = 2_500;
    const round = 100;
    const positions = () => reader.socket.messages.filter((m) => m.type === 'ride.position').length;
    try {
      for (let sent = 0; sent < count; sent += round) {
        for (let i = sent; i < sent + round; i++) driverSocket.send({ type: 'position', ...northOf(pickupOf(booked), 2000 + i) });
        await reader.socket.until(() => positions() === sent + round, `positions up to ${sent + round}`);
      }
      assert.equal(reader.socket.ws.readyState, reader.socket.ws.OPEN);
    } finally {
      slow.socket.ws.resume();
    }
    assert.equal((await slow.socket.closedBy('too slow')).code, TOO_SLOW);
    const got = slow.socket.messages;
    const before = got.filter((m) => m.type === 'ride.position').length;
    assert.ok(before > 0 && before < count, `${before} of ${count} positions reached the slow client before it was cut off`);
    assert.deepEqual(got, reader.socket.messages.slice(0, got.length), 'what it got is a gapless start: it resumes from its last number');
    await Promise.all([reader.socket.close(), driverSocket.close()]);
  });
});

/**
 * Short for a test, long beside the stalls of a busy machine: the client and the server share this
 * process, so an answered ping is lost only if the process gets no turn for a whole interval.
 */
const HEARTBEAT_MS = 250;

describe('heartbeats and shutdown', () => {
  let t: TestApp;
  let url: string;
  before(async () => {
    t = await createTestApp({}, { realtime: { heartbeatMs: HEARTBEAT_MS, closeGraceMs: 200 } });
    url = await realtimeUrl(t.app);
  });
  after(() => t.close());

  test('a connection that stops answering pings is dropped; one that answers stays', async () => {
    const rider = await signUp(t, { role: 'RIDER' });
    const { socket: alive } = await TestSocket.connect(url, rider.token);
    let pingsToAlive = 0;
    alive.ws.on('ping', () => pingsToAlive++);
    // Answers pings until it is ready, then stops: however long authentication takes on a busy
    // machine, the connection is dropped for pings it ignored once connected, not before.
    const deaf = await TestSocket.open(url, { autoPong: false });
    deaf.ws.on('ping', (data) => {
      if (!deaf.received.some((m) => m.type === 'ready')) deaf.ws.pong(data);
    });
    deaf.send({ type: 'auth', token: rider.token });
    await deaf.waitFor((m) => m.type === 'ready', 'ready');
    // Terminated without a close frame: the client sees an abnormal closure.
    assert.equal((await deaf.closedBy('no pongs')).code, 1006);
    // Every ping after the first is the server checking the answer to the one before.
    await until(() => pingsToAlive >= 3, 'three heartbeats on the connection that answers');
    alive.send({ type: 'ping' });
    await alive.waitFor((m) => m.type === 'pong', 'pong after several heartbeats');
    assert.equal(alive.ws.readyState, alive.ws.OPEN);
    await alive.close();
  });
});

/** Polls `condition` until it holds; fails after the same guard time as the socket client's waits. */
async function until(condition: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!condition()) {
    if (Date.now() > deadline) assert.fail(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('a stopping server', () => {
  test('closes every socket with 1001 "going away", and a client that does not answer does not hold up the stop', async () => {
    const t = await createTestApp({}, { realtime: { closeGraceMs: 200 } });
    const url = await realtimeUrl(t.app);
    const rider = await signUp(t, { role: 'RIDER' });
    const driver = await signUp(t, { role: 'DRIVER' });
    const sockets = [
      (await TestSocket.connect(url, rider.token)).socket,
      (await TestSocket.connect(url, driver.token)).socket,
      await TestSocket.open(url),
    ];
    const stuck = (await TestSocket.connect(url, rider.token)).socket;
    stuck.ws.pause();
    // Without the grace, the stop would wait for ws's own 30 s close timeout.
    let guard: NodeJS.Timeout | undefined;
    await Promise.race([t.close(), new Promise((_, reject) => (guard = setTimeout(() => reject(new Error('the stop waited for a client that does not answer')), 10_000)))]);
    clearTimeout(guard);
    for (const socket of sockets) assert.equal((await socket.closedBy('server stopping')).code, GOING_AWAY);
    stuck.ws.resume();
    assert.equal((await stuck.closedBy('cut off after the grace')).code, GOING_AWAY, 'the close frame was sent before the cut');
  });
});
