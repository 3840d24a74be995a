import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import pino from 'pino';
import { connectDatabase } from '../../../src/db/connect.ts';
import { NotificationsService, type NewNotification } from '../../../src/modules/notifications/notifications.service.ts';
import { SettingsService } from '../../../src/modules/settings/settings.service.ts';
import { MemoryEventBus } from '../../../src/platform/event-bus.ts';
import { Texts } from '../../../src/platform/i18n/texts.ts';
import { MemoryHub } from '../../../src/platform/realtime/hub.ts';
import type { Notification } from '../../../src/modules/notifications/notifications.schemas.ts';
import type { UserMessages } from '../../../src/events.ts';
import { eventually } from '../../helpers/dispatch.ts';
import { call, createTestApp, type TestApp } from '../../helpers/app.ts';
import { signUp, type TestUser } from '../../helpers/factories.ts';

/** Records notifications the way other modules do: through the service, inside a transaction. */
async function record(t: TestApp, items: NewNotification[]): Promise<number[]> {
  const connection = connectDatabase(t.config.database);
  try {
    const { db, transactions } = connection;
    const languages = new SettingsService({ db, transactions, clock: t.clock, bus: new MemoryEventBus() });
    const service = new NotificationsService({ db, transactions, clock: t.clock, hub: new MemoryHub(t.clock), log: pino({ level: 'silent' }), texts: new Texts('Asia/Kolkata'), languages });
    return await transactions.run((tx) => service.record(tx, items));
  } finally {
    await connection.destroy();
  }
}

const event = (userId: number, n: number): NewNotification => ({
  userId,
  rideId: n,
  eventType: 'RIDE_ACCEPTED',
  text: { name: 'driverRejected', values: { reason: `number ${n}` } },
});

describe('notifications', () => {
  let t: TestApp;
  let alice: TestUser;
  let bob: TestUser;
  before(async () => {
    t = await createTestApp();
    alice = await signUp(t);
    bob = await signUp(t);
  });
  after(() => t.close());

  test('history holds only the caller notifications, newest first, with unreadCount', async () => {
    const user = await signUp(t);
    await record(t, [event(user.id, 1)]);
    t.clock.advance(1000);
    await record(t, [event(user.id, 2), event(bob.id, 99)]);
    const reply = await call(t.app, 'GET', '/notifications/history', { token: user.token });
    assert.equal(reply.status, 200);
    assert.equal(reply.body.unreadCount, 2);
    assert.deepEqual(reply.body.notifications.map((n: { message: string }) => n.message.split('Reason: ')[1]), ['number 2', 'number 1']);
    const [newest] = reply.body.notifications;
    assert.deepEqual(Object.keys(newest).sort(), [
      'channel', 'createdAt', 'deliveredAt', 'eventType', 'id', 'message', 'read', 'rideId', 'status', 'title', 'userId',
    ]);
    assert.equal(newest.userId, user.id);
    assert.equal(newest.rideId, 2);
    assert.equal(newest.channel, 'in_app');
    assert.equal(newest.status, 'delivered');
    assert.equal(newest.read, false);
    assert.equal(newest.eventType, 'RIDE_ACCEPTED');
    assert.ok(Date.parse(newest.deliveredAt) >= Date.parse(newest.createdAt));
  });

  test('a user with nothing gets an empty list', async () => {
    const user = await signUp(t);
    const reply = await call(t.app, 'GET', '/notifications/history', { token: user.token });
    assert.deepEqual(reply.body, { notifications: [], unreadCount: 0, nextCursor: null });
  });

  test('limit and cursor page through the history', async () => {
    const user = await signUp(t);
    await record(t, Array.from({ length: 7 }, (_, i) => event(user.id, i + 1)));
    const seen: number[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const url: string = `/notifications/history?limit=3${cursor ? `&cursor=${cursor}` : ''}`;
      const page = await call(t.app, 'GET', url, { token: user.token });
      assert.equal(page.status, 200);
      assert.ok(page.body.notifications.length <= 3);
      seen.push(...page.body.notifications.map((n: { rideId: number }) => n.rideId));
      cursor = page.body.nextCursor;
      pages += 1;
    } while (cursor);
    assert.deepEqual(seen, [7, 6, 5, 4, 3, 2, 1]);
    assert.equal(pages, 3);
  });

  test('bad limit or cursor is a 400', async () => {
    for (const query of ['limit=0', 'limit=201', 'limit=abc', 'cursor=-1', 'cursor=abc']) {
      assert.equal((await call(t.app, 'GET', `/notifications/history?${query}`, { token: alice.token })).status, 400, query);
    }
  });

  test('mark-read flips one notification and answers the exact message', async () => {
    const user = await signUp(t);
    const [first, second] = await record(t, [event(user.id, 1), event(user.id, 2)]);
    const reply = await call(t.app, 'POST', `/notifications/mark-read/${first}`, { token: user.token });
    assert.equal(reply.status, 200);
    assert.deepEqual(reply.body, { message: 'Notification marked as read.' });
    const history = (await call(t.app, 'GET', '/notifications/history', { token: user.token })).body;
    assert.equal(history.unreadCount, 1);
    const byId = new Map(history.notifications.map((n: { id: number; read: boolean }) => [n.id, n.read]));
    assert.equal(byId.get(first), true);
    assert.equal(byId.get(second), false);
    const again = await call(t.app, 'POST', `/notifications/mark-read/${first}`, { token: user.token });
    assert.equal(again.status, 200, 'marking a read notification read again is fine');
  });

  test("someone else's or an unknown notification is a 404 and stays unread", async () => {
    const [bobs] = await record(t, [event(bob.id, 5)]);
    const reply = await call(t.app, 'POST', `/notifications/mark-read/${bobs}`, { token: alice.token });
    assert.equal(reply.status, 404);
    assert.equal(reply.body.code, 'NOT_FOUND');
    const bobsHistory = (await call(t.app, 'GET', '/notifications/history', { token: bob.token })).body;
    assert.equal(bobsHistory.notifications.find((n: { id: number }) => n.id === bobs).read, false);
    assert.equal((await call(t.app, 'POST', '/notifications/mark-read/987654321', { token: alice.token })).status, 404);
  });

  test('a non-numeric id is a 400', async () => {
    assert.equal((await call(t.app, 'POST', '/notifications/mark-read/abc', { token: alice.token })).status, 400);
  });

  test('mark-all-read covers only the caller, with or without a JSON content type', async () => {
    const user = await signUp(t);
    const other = await signUp(t);
    await record(t, [event(user.id, 1), event(user.id, 2), event(other.id, 3)]);
    const reply = await call(t.app, 'POST', '/notifications/mark-all-read', {
      token: user.token,
      headers: { 'content-type': 'application/json' },
    });
    assert.equal(reply.status, 200);
    assert.deepEqual(reply.body, { message: 'All notifications marked as read.' });
    const mine = (await call(t.app, 'GET', '/notifications/history', { token: user.token })).body;
    assert.equal(mine.unreadCount, 0);
    assert.ok(mine.notifications.every((n: { read: boolean }) => n.read));
    assert.equal((await call(t.app, 'GET', '/notifications/history', { token: other.token })).body.unreadCount, 1);
    assert.equal((await call(t.app, 'POST', '/notifications/mark-all-read', { token: user.token })).status, 200);
  });

  test('a message is cut to 800 characters', async () => {
    const user = await signUp(t);
    await record(t, [{ userId: user.id, eventType: 'DRIVER_REJECTED', text: { name: 'driverRejected', values: { reason: 'm'.repeat(2000) } } }]);
    const [n] = (await call(t.app, 'GET', '/notifications/history', { token: user.token })).body.notifications;
    assert.equal(n.title, 'Not approved to drive');
    assert.equal(n.message.length, 800);
    assert.equal(n.rideId, null);
  });

  test("a user's notices go out live in the order they were saved, though reading the language held up the first", async () => {
    const user = await signUp(t);
    const connection = connectDatabase(t.config.database);
    try {
      const { db, transactions } = connection;
      const settings = new SettingsService({ db, transactions, clock: t.clock, bus: new MemoryEventBus() });
      // The first read of the language is slow, as a database under load can make it: it ends only once
      // the second notice's own read (were it started) has ended.
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      const reads: Array<Promise<unknown>> = [];
      const languages = {
        languageOf(userId: number) {
          const read = reads.length === 0 ? held.then(() => settings.languageOf(userId)) : settings.languageOf(userId);
          reads.push(read);
          return read;
        },
      };
      const hub = new MemoryHub<UserMessages>(t.clock);
      const heard: string[] = [];
      await hub.attach(user.id, (message) => heard.push((message.data as Notification).eventType));
      const service = new NotificationsService({ db, transactions, clock: t.clock, hub, log: pino({ level: 'silent' }), texts: new Texts('Asia/Kolkata'), languages });
      await transactions.run((tx) => service.record(tx, [{ userId: user.id, rideId: 1, eventType: 'RIDE_ACCEPTED', text: { name: 'rideAccepted', values: { rideId: '1' } } }]));
      await transactions.run((tx) => service.record(tx, [{ userId: user.id, rideId: 1, eventType: 'DRIVER_ARRIVING', text: { name: 'driverArriving', values: { rideId: '1' } } }]));
      await Promise.all(reads.slice(1));
      release();
      await eventually(async () => (heard.length === 2 ? true : undefined), 'both notices live');
      assert.deepEqual(heard, ['RIDE_ACCEPTED', 'DRIVER_ARRIVING']);
    } finally {
      await connection.destroy();
    }
  });

  test('notifications need a token', async () => {
    assert.equal((await call(t.app, 'GET', '/notifications/history')).status, 401);
    assert.equal((await call(t.app, 'POST', '/notifications/mark-all-read')).status, 401);
    assert.equal((await call(t.app, 'POST', '/notifications/mark-read/1')).status, 401);
  });
});
