import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { createConnection, createServer, type AddressInfo, type Server } from 'node:net';
import { after, describe, test } from 'node:test';
import type { Redis } from 'ioredis';
import pino from 'pino';
import { REPLAY_BYTES, REPLAY_MESSAGES, type UserMessage } from '../../src/platform/realtime/hub.ts';
import { ATTACHED_MS, RedisHub } from '../../src/platform/realtime/redis-hub.ts';
import { createRedis, untilReady } from '../../src/platform/redis.ts';
import { TestClock } from '../helpers/app.ts';
import { productionServicesMissing, REDIS_URL } from '../helpers/production.ts';

const missing = await productionServicesMissing();

type Messages = { note: { n: number; text?: string } };

/** A TCP relay to Redis that counts the bytes Redis sends back: what a command cost to read. */
async function countingRelay(target: URL): Promise<{ url: string; received: () => number; server: Server }> {
  let received = 0;
  const server = createServer((client) => {
    const redis = createConnection({ host: target.hostname, port: Number(target.port || 6379) });
    client.pipe(redis);
    redis.on('data', (chunk: Buffer) => (received += chunk.length));
    redis.pipe(client);
    client.on('error', () => redis.destroy());
    redis.on('error', () => client.destroy());
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const relayed = new URL(target);
  relayed.hostname = '127.0.0.1';
  relayed.port = String((server.address() as AddressInfo).port);
  return { url: relayed.toString(), received: () => received, server };
}

describe('the Redis hub knows whom a message can reach, on every instance', { skip: missing }, () => {
  const prefix = `test:${randomBytes(6).toString('hex')}:`;
  const clock = new TestClock();
  const clients: Redis[] = [];
  const hubs: Array<RedisHub<Messages>> = [];

  /** One instance's hub: its own command and subscriber connections, as app.ts makes them. */
  const instance = async (commandsUrl = REDIS_URL) => {
    const redis = createRedis(commandsUrl, prefix, pino({ level: 'silent' }));
    const subscriber = createRedis(REDIS_URL, prefix, pino({ level: 'silent' }), { subscriber: true });
    clients.push(redis, subscriber);
    await untilReady(redis);
    const hub = new RedisHub<Messages>(redis, subscriber, prefix, clock, pino({ level: 'silent' }));
    hubs.push(hub);
    return Object.assign(hub, { subscriber, redis });
  };
  const eventually = async (condition: () => boolean, what: string) => {
    for (let i = 0; i < 200 && !condition(); i++) await new Promise((resolve) => setTimeout(resolve, 10));
    assert.ok(condition(), what);
  };

  after(async () => {
    for (const hub of hubs) await hub.close();
    for (const client of clients) client.disconnect();
  });

  test('a user nobody connected for is not reached; one attach anywhere makes every instance send, and a later instance knows it', async () => {
    const a = await instance();
    const b = await instance();
    // Until an instance has read who attached, it sends everything.
    await eventually(() => !a.reaches(1) && !b.reaches(1), 'both instances know nobody attached');

    const heard: Array<UserMessage<Messages>> = [];
    const attachment = await b.attach(1, (message) => heard.push(message));
    assert.equal(b.reaches(1), true, 'the attaching instance knows at once');
    await eventually(() => a.reaches(1), 'the other instance hears of the attach');
    assert.equal(a.reaches(2), false, 'only that user');
    await a.send(1, 'note', { n: 1 });
    await eventually(() => heard.length === 1, 'a message sent on A reaches the connection on B');
    assert.equal(heard[0].seq, attachment.seq + 1);
    attachment.detach();

    const started = await instance();
    assert.equal(started.reaches(2), true, 'a new instance sends everything until it has read who attached');
    await eventually(() => !started.reaches(2), 'then it knows');
    assert.equal(started.reaches(1), true, 'and remembers who attached before it started');

    // A detached user's messages are kept for a resume for as long as their connection could have lasted and then some.
    clock.advance(ATTACHED_MS - 1000);
    assert.equal(a.reaches(1), true);
    clock.advance(2000);
    assert.equal(a.reaches(1), false);
    assert.equal(started.reaches(1), false);
  });

  test('while an instance’s subscription is down it may miss announcements, so it sends everything until it has read them again', async () => {
    const a = await instance();
    const b = await instance();
    await eventually(() => !a.reaches(7), 'A knows nobody attached');
    a.subscriber.disconnect(true);
    await eventually(() => a.reaches(7), 'with the subscription down, A sends to everyone');
    const attachment = await b.attach(7, () => {});
    await eventually(() => !a.reaches(8), 'subscribed again, A has read who attached');
    assert.equal(a.reaches(7), true, 'including the attach it could not hear');
    attachment.detach();
  });

  test('what is sent to a user who attached before is kept for their resume, on any instance', async () => {
    const a = await instance();
    const b = await instance();
    const first = await a.attach(5, () => {});
    first.detach();
    await eventually(() => b.reaches(5), 'B hears of the attach');
    await b.send(5, 'note', { n: 1 });
    await b.send(5, 'note', { n: 2 });
    const resumed = await a.attach(5, () => {}, first.seq);
    assert.equal(resumed.resync, false);
    assert.deepEqual(
      resumed.replay.map((m) => m.data.n),
      [1, 2],
    );
    resumed.detach();
  });

  test('the messages of one turn go out as one channel message, each user’s numbered in order and kept for resume', async () => {
    const a = await instance();
    const b = await instance();
    const [first, second] = [9_101, 9_102];
    const heardFirst: Array<UserMessage<Messages>> = [];
    const heardSecond: Array<UserMessage<Messages>> = [];
    const attachedFirst = await b.attach(first, (message) => heardFirst.push(message));
    const attachedSecond = await b.attach(second, (message) => heardSecond.push(message));
    await eventually(() => a.reaches(first) && a.reaches(second), 'A knows both attached');
    // A third connection listens to the channel itself and counts what crosses it.
    const listener = createRedis(REDIS_URL, prefix, pino({ level: 'silent' }), { subscriber: true });
    clients.push(listener);
    const crossings: string[] = [];
    listener.on('message', (channel: string, text: string) => channel === `${prefix}realtime` && crossings.push(text));
    await listener.subscribe(`${prefix}realtime`);

    await Promise.all([a.send(first, 'note', { n: 1 }), a.send(second, 'note', { n: 2 }), a.send(first, 'note', { n: 3 })]);
    await eventually(() => heardFirst.length === 2 && heardSecond.length === 1 && crossings.length > 0, 'B hears all three');
    assert.equal(crossings.length, 1, 'one channel message for the turn');
    assert.deepEqual(
      heardFirst.map((message) => [message.seq, message.data.n]),
      [
        [attachedFirst.seq + 1, 1],
        [attachedFirst.seq + 2, 3],
      ],
    );
    assert.deepEqual(
      heardSecond.map((message) => [message.seq, message.data.n]),
      [[attachedSecond.seq + 1, 2]],
    );
    const resumed = await b.attach(first, () => {}, attachedFirst.seq);
    assert.deepEqual(
      resumed.replay.map((message) => message.data.n),
      [1, 3],
      'both kept for a resume',
    );
    for (const attachment of [attachedFirst, attachedSecond, resumed]) attachment.detach();
  });

  test('a user’s replay stream keeps at most REPLAY_MESSAGES messages and REPLAY_BYTES bytes', async () => {
    const a = await instance();
    const first = await a.attach(9, () => {});
    first.detach();
    for (let start = 1; start <= REPLAY_MESSAGES + 200; start += 100) {
      await Promise.all(Array.from({ length: 100 }, (_, i) => a.send(9, 'note', { n: start + i })));
    }
    assert.equal(await a.redis.xlen('realtime:replay:9'), REPLAY_MESSAGES);
    const latest = (await a.attach(9, () => {})).seq;
    const tooOld = await a.attach(9, () => {}, first.seq);
    assert.equal(tooOld.resync, true, 'the oldest messages are gone');
    const kept = await a.attach(9, () => {}, latest - REPLAY_MESSAGES);
    assert.equal(kept.resync, false);
    assert.equal(kept.replay.length, REPLAY_MESSAGES);
    assert.deepEqual(kept.replay.slice(-2).map((m) => m.data.n), [REPLAY_MESSAGES + 199, REPLAY_MESSAGES + 200]);

    const text = 'y'.repeat(10_000);
    for (let i = 0; i < 40; i++) await a.send(9, 'note', { n: i, text });
    const bytes = Number(await a.redis.get('realtime:replay-bytes:9'));
    assert.ok(bytes <= REPLAY_BYTES && bytes > REPLAY_BYTES - 11_000, `${bytes} bytes kept`);
    const length = await a.redis.xlen('realtime:replay:9');
    assert.ok(length < 30, `${length} messages of 10 kB kept`);
  });

  test('a resume from before what is kept is a resync that reads nothing of the stream; a recent one reads only what it missed', async () => {
    const relay = await countingRelay(new URL(REDIS_URL));
    try {
      const a = await instance(relay.url);
      const first = await a.attach(11, () => {});
      first.detach();
      const text = 'z'.repeat(200);
      for (let start = 1; start <= REPLAY_MESSAGES + 100; start += 100) {
        await Promise.all(Array.from({ length: 100 }, (_, i) => a.send(11, 'note', { n: start + i, text })));
      }
      let before = relay.received();
      const resync = await a.attach(11, () => {}, first.seq);
      assert.equal(resync.resync, true);
      const resyncBytes = relay.received() - before;
      assert.ok(resyncBytes < 1_000, `a resync read ${resyncBytes} bytes from Redis (the stream holds about ${REPLAY_MESSAGES * 300})`);
      before = relay.received();
      const recent = await a.attach(11, () => {}, resync.seq - 3);
      assert.deepEqual(recent.replay.map((m) => m.data.n), [REPLAY_MESSAGES + 98, REPLAY_MESSAGES + 99, REPLAY_MESSAGES + 100]);
      const recentBytes = relay.received() - before;
      assert.ok(recentBytes < 3_000, `three missed messages read ${recentBytes} bytes`);
    } finally {
      relay.server.close();
    }
  });
});
