import assert from 'node:assert/strict';
import { once } from 'node:events';
import http, { type ClientRequest, type IncomingMessage } from 'node:http';
import { after, before, describe, test } from 'node:test';
import { REPLAY_MS } from '../../src/platform/realtime/hub.ts';
import { call, createTestApp, type TestApp } from '../helpers/app.ts';
import { signUp, type TestUser } from '../helpers/factories.ts';
import { accept, assertOk, bookRide, northOf, pickupOf } from '../helpers/rides.ts';
import { TestSocket, realtimeUrl, type ServerMessage } from './socket-client.ts';

const seqs = (messages: ServerMessage[]) => messages.map((m) => m.seq);

/** The messages `socket` received after the one numbered `seq`. */
const seenAfter = (socket: TestSocket, seq: number) => socket.messages.filter((m) => m.seq! > seq);

/** One server-sent event. */
interface SseEvent {
  id?: string;
  event?: string;
  data: string;
}

/** An open /notifications/stream, read as events arrive (node:http: one connection, closed with the stream). */
class SseStream {
  readonly events: SseEvent[] = [];
  readonly #request: ClientRequest;
  #buffer = '';

  private constructor(request: ClientRequest, response: IncomingMessage) {
    this.#request = request;
    response.setEncoding('utf8');
    response.on('data', (chunk: string) => {
      this.#buffer += chunk;
      let end;
      while ((end = this.#buffer.indexOf('\n\n')) >= 0) {
        const lines = this.#buffer.slice(0, end).split('\n').filter((line) => !line.startsWith(':') && line.includes(': '));
        this.#buffer = this.#buffer.slice(end + 2);
        const fields = Object.fromEntries(lines.map((line) => [line.slice(0, line.indexOf(': ')), line.slice(line.indexOf(': ') + 2)]));
        if (fields.data !== undefined) this.events.push(fields as unknown as SseEvent);
      }
    });
  }

  static async open(base: string, token: string, lastEventId?: string): Promise<SseStream> {
    const headers: Record<string, string> = { authorization: `Bearer ${token}` };
    if (lastEventId !== undefined) headers['last-event-id'] = lastEventId;
    const request = http.get(`${base}/notifications/stream`, { headers, agent: false });
    const [response] = (await once(request, 'response')) as [IncomingMessage];
    assert.equal(response.statusCode, 200);
    assert.match(response.headers['content-type'] ?? '', /^text\/event-stream/);
    return new SseStream(request, response);
  }

  async waitFor(match: (event: SseEvent) => boolean, what: string): Promise<SseEvent> {
    const deadline = Date.now() + 10_000;
    for (;;) {
      const found = this.events.find(match);
      if (found) return found;
      if (Date.now() > deadline) assert.fail(`timed out waiting for ${what}: ${JSON.stringify(this.events)}`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }

  async close(): Promise<void> {
    const closed = once(this.#request, 'close');
    this.#request.destroy();
    await closed;
  }
}

const noticeOf = (eventType: string) => (event: SseEvent) => event.event === 'notification' && (JSON.parse(event.data) as { eventType: string }).eventType === eventType;

describe('resuming the realtime channel', () => {
  let t: TestApp;
  let url: string;
  let base: string;
  before(async () => {
    t = await createTestApp();
    url = await realtimeUrl(t.app);
    base = url.replace('ws://', 'http://').replace('/realtime', '');
  });
  after(() => t.close());

  /** A rider's booking accepted by a new driver: the rider gets several messages. */
  async function rideFor(rider: TestUser) {
    const driver = await signUp(t, { role: 'DRIVER' });
    const booked = await bookRide(t, rider);
    return { driver, booked };
  }

  test('a client that reconnects with resumeAfter gets exactly the messages it missed, then the live ones', async () => {
    const rider = await signUp(t, { role: 'RIDER' });
    // A second connection of the same rider that never drops: what the first one should have seen.
    const witness = await TestSocket.connect(url, rider.token);
    const first = await TestSocket.connect(url, rider.token);
    const { driver, booked } = await rideFor(rider);
    await first.socket.waitFor((m) => m.type === 'ride.updated' && m.data.status === 'REQUESTED', 'the booking');
    const lastSeen = first.socket.messages.at(-1)!.seq!;
    await first.socket.close();

    assertOk(await accept(t, driver, booked.id), 'accept');
    for (const metres of [900, 600]) {
      assertOk(await call(t.app, 'POST', `/rides/location/${booked.id}`, { token: driver.token, body: northOf(pickupOf(booked), metres) }), 'position');
    }
    await witness.socket.waitFor((m) => m.type === 'ride.position' && m.data.lat === northOf(pickupOf(booked), 600).lat, 'the last position');
    const missed = seenAfter(witness.socket, lastSeen);
    assert.ok(missed.length >= 3, `${missed.length} messages missed`);

    const again = await TestSocket.connect(url, rider.token, lastSeen);
    assert.equal(again.ready.seq, missed.at(-1)!.seq, 'ready carries the latest number');
    const replayed = await again.socket.waitForMessages(missed.length, 'the replay');
    assert.deepEqual(replayed, missed, 'the missed messages, each once, in order');
    assert.ok(!again.socket.received.some((m) => m.type === 'resync'));

    assertOk(await call(t.app, 'POST', `/rides/location/${booked.id}`, { token: driver.token, body: northOf(pickupOf(booked), 500) }), 'position');
    const live = (m: ServerMessage) => m.type === 'ride.position' && m.data.lat === northOf(pickupOf(booked), 500).lat;
    await Promise.all([again.socket.waitFor(live, 'a live position'), witness.socket.waitFor(live, 'a live position at the witness')]);
    assert.deepEqual(seqs(again.socket.messages), seqs(seenAfter(witness.socket, lastSeen)), 'live messages follow without a gap');
    await Promise.all([again.socket.close(), witness.socket.close()]);
  });

  test('a client resuming at the latest number gets nothing replayed', async () => {
    const rider = await signUp(t, { role: 'RIDER' });
    const first = await TestSocket.connect(url, rider.token);
    await rideFor(rider);
    const [notice, update] = await first.socket.waitForMessages(2, 'the booking');
    await first.socket.close();
    const again = await TestSocket.connect(url, rider.token, update.seq);
    assert.equal(again.ready.seq, update.seq);
    assert.ok(notice.seq! < update.seq!);
    // Something live must come next, and nothing before it.
    await bookRide(t, rider);
    await again.socket.waitFor((m) => m.type === 'ride.updated', 'the next booking');
    assert.equal(again.socket.messages[0].seq, update.seq! + 1);
    await again.socket.close();
  });

  test('a client resuming from a number never handed out is told to resync', async () => {
    const rider = await signUp(t, { role: 'RIDER' });
    const { socket, ready } = await TestSocket.connect(url, rider.token);
    await socket.close();
    const again = await TestSocket.connect(url, rider.token, ready.seq! + 1000);
    await again.socket.waitFor((m) => m.type === 'resync', 'resync');
    await again.socket.close();
  });

  test('a client whose missed messages are older than the replay window is told to resync, then gets live ones', async () => {
    const rider = await signUp(t, { role: 'RIDER' });
    const witness = await TestSocket.connect(url, rider.token);
    const first = await TestSocket.connect(url, rider.token);
    const { driver, booked } = await rideFor(rider);
    const update = await first.socket.waitFor((m) => m.type === 'ride.updated', 'the booking');
    await first.socket.close();
    assertOk(await accept(t, driver, booked.id), 'accept');
    await witness.socket.waitFor((m) => m.type === 'ride.updated' && m.data.status === 'ACCEPTED', 'the missed acceptance');
    t.clock.advance(REPLAY_MS + 1_000);

    const again = await TestSocket.connect(url, rider.token, update.seq);
    await again.socket.waitFor((m) => m.type === 'resync', 'resync');
    assert.deepEqual(again.socket.received.map((m) => m.type), ['ready', 'resync'], 'nothing replayed');
    assertOk(await call(t.app, 'POST', `/rides/location/${booked.id}`, { token: driver.token, body: northOf(pickupOf(booked), 900) }), 'position');
    const next = await again.socket.waitFor((m) => m.type === 'ride.position', 'a live position');
    assert.ok(next.seq! > again.ready.seq!, 'live messages follow the number given in ready');
    await Promise.all([again.socket.close(), witness.socket.close()]);
  });

  test('a client gone for long loses nothing: numbers handed out before are never reused', async () => {
    const rider = await signUp(t, { role: 'RIDER' });
    const first = await TestSocket.connect(url, rider.token);
    await rideFor(rider);
    const update = await first.socket.waitFor((m) => m.type === 'ride.updated', 'the booking');
    await first.socket.close();
    // Long enough for the in-process hub to forget a user nobody listens to and nothing is kept for.
    t.clock.advance(REPLAY_MS + 60_000);
    const witness = await TestSocket.connect(url, rider.token);
    const later = [await bookRide(t, rider), await bookRide(t, rider), await bookRide(t, rider)];
    for (const ride of later) await witness.socket.waitFor((m) => m.type === 'ride.updated' && m.data.id === ride.id, `booking ${ride.id}`);

    const again = await TestSocket.connect(url, rider.token, update.seq);
    if (again.socket.received.some((m) => m.type === 'resync')) {
      assert.ok(witness.socket.messages.every((m) => m.seq! > update.seq!), 'new messages are numbered above the old ones');
    } else {
      // Still numbered on from before: everything since the old number comes, ending with what the witness saw.
      const replayed = await again.socket.waitForMessages(again.ready.seq! - update.seq!, 'the replay');
      assert.deepEqual(seqs(replayed), replayed.map((_, i) => update.seq! + 1 + i));
      assert.deepEqual(replayed.slice(-witness.socket.messages.length), witness.socket.messages);
    }
    await Promise.all([again.socket.close(), witness.socket.close()]);
  });

  test('the notification stream honours Last-Event-ID: missed notifications are replayed, nothing twice', async () => {
    const rider = await signUp(t, { role: 'RIDER' });
    const stream = await SseStream.open(base, rider.token);
    const { driver, booked } = await rideFor(rider);
    const requested = await stream.waitFor(noticeOf('RIDE_REQUESTED'), 'RIDE_REQUESTED');
    await stream.close();

    assertOk(await accept(t, driver, booked.id), 'accept');
    assertOk(await call(t.app, 'POST', `/rides/location/${booked.id}`, { token: driver.token, body: pickupOf(booked) }), 'arriving');
    // The notices of the history after the one the stream last showed.
    const history = (await call(t.app, 'GET', '/notifications/history', { token: rider.token })).body.notifications as Array<{ id: number; eventType: string }>;
    const missed = history.filter((n) => n.id > (JSON.parse(requested.data) as { id: number }).id).reverse();
    assert.deepEqual(missed.map((n) => n.eventType), ['RIDE_ACCEPTED', 'DRIVER_ARRIVING']);

    const resumed = await SseStream.open(base, rider.token, requested.id);
    await resumed.waitFor(noticeOf('DRIVER_ARRIVING'), 'DRIVER_ARRIVING');
    const replayed = resumed.events.filter((e) => e.event === 'notification');
    assert.deepEqual(replayed.map((e) => (JSON.parse(e.data) as { id: number }).id), missed.map((n) => n.id), 'the missed ones, once each');
    assert.ok(replayed.every((e) => Number(e.id) > Number(requested.id)), 'ids keep growing');
    assert.ok(!resumed.events.some((e) => e.event === 'resync'));
    await resumed.close();
  });

  test('the notification stream asks for a resync when what was missed is older than the replay window', async () => {
    const rider = await signUp(t, { role: 'RIDER' });
    const witness = await TestSocket.connect(url, rider.token);
    const stream = await SseStream.open(base, rider.token);
    const { driver, booked } = await rideFor(rider);
    const requested = await stream.waitFor(noticeOf('RIDE_REQUESTED'), 'RIDE_REQUESTED');
    await stream.close();
    assertOk(await accept(t, driver, booked.id), 'accept');
    await witness.socket.waitFor((m) => m.type === 'notification.created' && m.data.eventType === 'RIDE_ACCEPTED', 'the missed notice');
    t.clock.advance(REPLAY_MS + 1_000);

    const resumed = await SseStream.open(base, rider.token, requested.id);
    await resumed.waitFor((e) => e.event === 'resync', 'resync');
    assert.ok(!resumed.events.some((e) => e.event === 'notification'), 'nothing replayed');
    await Promise.all([resumed.close(), witness.socket.close()]);
  });
});
