import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../../src/app.ts';
import { connectDatabase } from '../../../src/db/connect.ts';
import { call, createTestApp, type TestApp } from '../../helpers/app.ts';
import { eventually } from '../../helpers/dispatch.ts';
import { signUp, type TestUser } from '../../helpers/factories.ts';
import { acceptedRide, assertOk, bookRide } from '../../helpers/rides.ts';
import { realtimeUrl, TestSocket } from '../../realtime/socket-client.ts';

// The service's own texts in the reader's language (docs/rides.md "Notifications"): a notification
// keeps its text by name, and is worded in the language its reader chose whenever it is read or sent.

async function chooseLanguage(t: TestApp, user: TestUser, language: string | null): Promise<void> {
  assertOk(await call(t.app, 'PUT', '/user-settings', { token: user.token, body: { language } }), 'settings');
}

async function history(t: TestApp, user: TestUser, rideId: number): Promise<Array<{ eventType: string; title: string; message: string }>> {
  const reply = await call(t.app, 'GET', '/notifications/history', { token: user.token });
  assertOk(reply, 'history');
  return reply.body.notifications.filter((n: { rideId: number | null }) => n.rideId === rideId);
}

describe("notifications in their reader's language", () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp();
  });
  after(() => t.close());

  test('a Hindi rider hears the accept live in Hindi and reads every notice in Hindi; choosing Kannada, then none, rewords the old ones', async () => {
    const rider = await signUp(t);
    await chooseLanguage(t, rider, 'hi');
    const { socket } = await TestSocket.connect(await realtimeUrl(t.app), rider.token);
    const { booked } = await acceptedRide(t, rider, await signUp(t, { role: 'DRIVER' }));

    const live = await socket.waitFor((m) => m.type === 'notification.created' && m.data.eventType === 'RIDE_ACCEPTED', 'the accept notice');
    assert.equal(live.data.title, 'ड्राइवर रास्ते में है');
    assert.equal(live.data.message, `एक ड्राइवर ने सवारी #${booked.id} स्वीकार कर ली है और आपके पिकअप स्थान की ओर आ रहा है।`);
    await socket.close();

    const inHindi = await history(t, rider, booked.id);
    assert.deepEqual(inHindi.map((n) => n.title), ['ड्राइवर रास्ते में है', 'ड्राइवर खोजा जा रहा है']);
    assert.match(inHindi[1].message, /^आपकी MG Road से Koramangala तक की सवारी ₹[\d,.]+ में बुक हो गई है।/);

    await chooseLanguage(t, rider, 'kn');
    assert.deepEqual((await history(t, rider, booked.id)).map((n) => n.title), ['ಚಾಲಕರು ಬರುತ್ತಿದ್ದಾರೆ', 'ಚಾಲಕರನ್ನು ಹುಡುಕಲಾಗುತ್ತಿದೆ']);
    await chooseLanguage(t, rider, null);
    const inEnglish = await history(t, rider, booked.id);
    assert.deepEqual(inEnglish.map((n) => n.title), ['Driver on the way', 'Looking for a driver']);
    assert.equal(inEnglish[0].message, `A driver accepted ride #${booked.id} and is heading to your pickup point.`);
  });

  test('a user who never chose a language is written to in English, the fare in rupees', async () => {
    const rider = await signUp(t);
    const booked = await bookRide(t, rider);
    const [notice] = await history(t, rider, booked.id);
    assert.equal(notice.title, 'Looking for a driver');
    const fare = new Intl.NumberFormat('en-IN', { style: 'currency', currency: 'INR', trailingZeroDisplay: 'stripIfInteger' }).format(booked.fare);
    assert.equal(notice.message, `Your ride from MG Road to Koramangala is booked for ${fare}. We will tell you when a driver accepts.`);
  });

  test('a notification written before texts had names keeps its English words in any language', async () => {
    const rider = await signUp(t);
    await chooseLanguage(t, rider, 'hi');
    const connection = connectDatabase(t.config.database);
    try {
      await connection.transactions.run((tx) => tx.db
        .insertInto('notifications')
        .values({ user_id: rider.id, ride_id: null, title: 'Old title', message: 'Old message', channel: 'in_app', event_type: 'RIDE_ACCEPTED', read: 0, status: 'delivered', created_at: t.clock.now(), delivered_at: t.clock.now(), text_name: null, text_values: null })
        .execute());
    } finally {
      await connection.destroy();
    }
    const [old] = (await call(t.app, 'GET', '/notifications/history', { token: rider.token })).body.notifications;
    assert.deepEqual([old.title, old.message], ['Old title', 'Old message']);
  });
});

describe('a language changed on one instance, on two sharing PostgreSQL and Redis', { skip: !process.env.REDIS_URL && 'production mode only (REDIS_URL)' }, () => {
  let t: TestApp;
  let other: FastifyInstance;
  before(async () => {
    t = await createTestApp();
    other = await buildApp(t.config, { clock: t.clock, logger: false });
  });
  after(async () => {
    await other?.close();
    await t.close();
  });

  test('the other instance stops writing in the old one once it hears of the change (its clock stands still: no expiry helps)', async () => {
    const rider = await signUp(t);
    await chooseLanguage(t, rider, 'hi');
    const booked = await bookRide(t, rider);
    const titleOn = async (app: FastifyInstance) => (await call(app, 'GET', '/notifications/history', { token: rider.token })).body.notifications.find((n: { rideId: number }) => n.rideId === booked.id).title;
    assert.equal(await titleOn(other), 'ड्राइवर खोजा जा रहा है', 'the other instance now remembers Hindi');

    await chooseLanguage(t, rider, 'kn');
    assert.equal(await titleOn(t.app), 'ಚಾಲಕರನ್ನು ಹುಡುಕಲಾಗುತ್ತಿದೆ');
    await eventually(async () => ((await titleOn(other)) === 'ಚಾಲಕರನ್ನು ಹುಡುಕಲಾಗುತ್ತಿದೆ' ? true : undefined), 'the other instance in Kannada', 20_000);
  });
});
