import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, describe, test } from 'node:test';
import type { Redis } from 'ioredis';
import pino from 'pino';
import type { UserMessage } from '../../src/platform/realtime/hub.ts';
import { ATTACHED_MS, RedisHub } from '../../src/platform/realtime/redis-hub.ts';
import { createRedis, untilReady } from '../../src/platform/redis.ts';
import { TestClock } from '../helpers/app.ts';
import { productionServicesMissing, REDIS_URL } from '../helpers/production.ts';

const missing = await productionServicesMissing();

type Messages = { note: { n: number } };

describe('the Redis hub knows whom a message can reach, on every instance', { skip: missing }, () => {
  const prefix = `test:${randomBytes(6).toString('hex')}:`;
  const clock = new TestClock();
  const clients: Redis[] = [];
  const hubs: Array<RedisHub<Messages>> = [];

  /** One instance's hub: its own command and subscriber connections, as app.ts makes them. */
  const instance = async () => {
    const redis = createRedis(REDIS_URL, prefix, pino({ level: 'silent' }));
    const subscriber = createRedis(REDIS_URL, prefix, pino({ level: 'silent' }), { subscriber: true });
    clients.push(redis, subscriber);
    await untilReady(redis);
    const hub = new RedisHub<Messages>(redis, subscriber, prefix, clock, pino({ level: 'silent' }));
    hubs.push(hub);
    return Object.assign(hub, { subscriber });
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
});
