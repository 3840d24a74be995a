import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../../src/app.ts';
import { routes } from '../../../src/contract/routes.ts';
import type { PushSubscriptionBody } from '../../../src/contract/types.ts';
import { apiOf, asReply } from '../../helpers/api.ts';
import { connectDatabase } from '../../../src/db/connect.ts';
import { createTestApp, type TestApp } from '../../helpers/app.ts';
import { driverAt, eventually, near, offersOf, PICKUP } from '../../helpers/dispatch.ts';
import { signUp, type TestUser } from '../../helpers/factories.ts';
import { LocalPushService, testPushConfig } from '../../helpers/push-service.ts';
import { acceptedRide, assertError, assertOk, bookRide, pickedRide, setStatus } from '../../helpers/rides.ts';
import { realtimeUrl, TestSocket } from '../../realtime/socket-client.ts';
import { operatorApp, type OperatorApp } from '../admin/operator.ts';

// decisions.md "Apps in people's languages, installable, with push": a browser's subscription is kept
// (POST /push/subscriptions), and offers, ride changes and SOS alerts reach a user whose app is closed
// through a push service. Here the push service is a local one that checks each request's VAPID JWT
// and decrypts the message with the subscription's own keys, as the browser would.

const push = testPushConfig;

const subscribe = async (t: TestApp, user: TestUser, subscription: PushSubscriptionBody) => asReply(await apiOf(t, user).send(routes.push.subscribe, { body: subscription }));

/** push_messages_total{result} as /metrics shows it. */
async function pushed(t: TestApp, result: string): Promise<number> {
  const text = (await t.app.inject({ method: 'GET', url: '/metrics' })).body;
  const line = text.split('\n').find((l) => l.startsWith(`ride_hailing_push_messages_total{result="${result}"}`));
  return line ? Number(line.split(' ').pop()) : 0;
}
const countReaches = (t: TestApp, result: string, count: number) => eventually(async () => ((await pushed(t, result)) >= count ? true : undefined), `${count} push messages ${result}`);

describe('push subscriptions', () => {
  let t: TestApp;
  let service: LocalPushService;
  before(async () => {
    service = await new LocalPushService().start();
    t = await createTestApp({ push });
  });
  after(async () => {
    await t.close();
    await service.close();
  });

  test('GET /push/key answers the VAPID public key browsers subscribe with, to anyone', async () => {
    const reply = asReply(await apiOf(t).send(routes.push.key));
    assertOk(reply, 'key');
    assert.equal(reply.body.publicKey, push.vapid.publicKey);
    assert.equal(Buffer.from(reply.body.publicKey, 'base64url').length, 65, 'an uncompressed P-256 point');
    assert.equal(JSON.stringify(reply.body).includes(push.vapid.privateKey), false);
  });

  test('a subscription is kept once per browser, refused without a token, and forgotten by DELETE', async () => {
    const rider = await signUp(t);
    const browser = service.subscribe();
    assert.equal((await t.app.inject({ method: 'POST', url: '/push/subscriptions', payload: browser })).statusCode, 401);
    const first = await subscribe(t, rider, browser);
    assertOk(first, 'subscribe');
    assert.equal(first.body.subscriptions, 1);
    assert.equal((await subscribe(t, rider, browser)).body.subscriptions, 1, 'the same browser again is the same subscription');
    assert.equal((await subscribe(t, rider, service.subscribe())).body.subscriptions, 2);

    const removed = asReply(await apiOf(t, rider).send(routes.push.unsubscribe, { body: { endpoint: browser.endpoint } }));
    assertOk(removed, 'unsubscribe');
    assert.equal(removed.body.message, 'This browser will no longer be sent messages.');
    const again = asReply(await apiOf(t, rider).send(routes.push.unsubscribe, { body: { endpoint: browser.endpoint } }));
    assert.equal(again.body.message, 'This browser was not subscribed.');
  });

  test('an account keeps its 10 newest browsers', async () => {
    const rider = await signUp(t);
    const browsers = Array.from({ length: 12 }, () => service.subscribe());
    for (const browser of browsers.slice(0, 11)) await subscribe(t, rider, browser);
    assert.equal((await subscribe(t, rider, browsers[11])).body.subscriptions, 10);
    const { db } = connectDatabase(t.config.database);
    try {
      const kept = await db.selectFrom('push_subscriptions').select('endpoint').where('user_id', '=', rider.id).execute();
      assert.deepEqual(kept.map((row) => row.endpoint).sort(), browsers.slice(2).map((browser) => browser.endpoint).sort(), 'the two oldest went');
    } finally {
      await db.destroy();
    }
  });

  test('endpoints outside the push services, and keys that cannot encrypt, are refused with 400', async () => {
    const rider = await signUp(t);
    const { keys } = service.subscribe();
    for (const endpoint of ['https://internal.example.com/push/abc', 'http://fcm.googleapis.com/fcm/send/abc', 'http://10.0.0.5/push/abc', 'https://user:pw@fcm.googleapis.com/fcm/send/abc']) {
      assertError(await subscribe(t, rider, { endpoint, keys }), 400, 'INVALID_PUSH_SUBSCRIPTION');
    }
    assertOk(await subscribe(t, rider, { endpoint: 'https://fcm.googleapis.com/fcm/send/abc', keys }), 'a known push service');
    const notAPoint = `BA${'A'.repeat(85)}`;
    assertError(await subscribe(t, rider, { endpoint: service.subscribe().endpoint, keys: { ...keys, p256dh: notAPoint } }), 400, 'INVALID_PUSH_SUBSCRIPTION');
    assertError(await subscribe(t, rider, { endpoint: service.subscribe().endpoint, keys: { ...keys, auth: 'short' } }), 400, 'VALIDATION_FAILED');
    assertError(await subscribe(t, rider, { endpoint: `https://fcm.googleapis.com/${'a'.repeat(1100)}`, keys }), 400, 'VALIDATION_FAILED');
  });
});

describe('offers pushed to a driver whose app is closed', () => {
  let t: TestApp;
  let service: LocalPushService;
  before(async () => {
    service = await new LocalPushService().start();
    t = await createTestApp({ push, dispatch: { mode: 'nearest', batchMs: 60, offerTtlMs: 15_000, maxMs: 120_000 } });
  });
  after(async () => {
    await t.close();
    await service.close();
  });

  const book = (rider: TestUser, pickup: { lat: number; lon: number }) => bookRide(t, rider, { pickupLat: pickup.lat, pickupLon: pickup.lon, dropLat: pickup.lat + 0.05, dropLon: pickup.lon });

  test('the offer reaches the browser urgently, decrypted with its keys, signed for that push service, living as long as the offer', async () => {
    const pickup = near(PICKUP, -20);
    const driver = await driverAt(t, near(pickup, 0.4));
    const browser = service.subscribe();
    assertOk(await subscribe(t, driver, browser), 'subscribe');
    const ride = await book(await signUp(t), pickup);

    const message = await service.waitFor(browser.endpoint, (p) => p.kind === 'offer' && p.rideId === ride.id, 'of the offer');
    const [offer] = await offersOf(t, driver);
    assert.equal(message.payload.offerId, offer.offerId);
    assert.equal(message.payload.expiresAt, offer.expiresAt);
    assert.match(message.payload.title, new RegExp(`₹${offer.fare}`));
    assert.equal(message.urgency, 'high');
    assert.ok(message.ttl >= 1 && message.ttl <= 15, `TTL ${message.ttl} s is within the offer's 15 s`);
    assert.equal(message.vapid.k, push.vapid.publicKey, 'signed with the key GET /push/key gives');
    assert.equal(message.vapid.aud, service.origin);
    assert.equal(message.vapid.sub, 'mailto:ops@example.com');
  });

  test("a driver who chose Kannada is offered the ride in Kannada", async () => {
    const pickup = near(PICKUP, -30);
    const driver = await driverAt(t, near(pickup, 0.4));
    assertOk(asReply(await apiOf(t, driver).send(routes.settings.update, { body: { language: 'kn' } })), 'settings');
    const browser = service.subscribe();
    assertOk(await subscribe(t, driver, browser), 'subscribe');
    const ride = await book(await signUp(t), pickup);

    const message = await service.waitFor(browser.endpoint, (p) => p.kind === 'offer' && p.rideId === ride.id, 'of the offer');
    const [offer] = await offersOf(t, driver);
    const fare = new Intl.NumberFormat('kn-IN', { style: 'currency', currency: 'INR', trailingZeroDisplay: 'stripIfInteger' }).format(offer.fare);
    assert.equal(message.payload.title, `ಹೊಸ ಸವಾರಿ: ${fare}`);
    assert.equal(message.payload.body, `ಪಿಕಪ್ MG Road ನಲ್ಲಿ, ${offer.pickupDistanceKm} ಕಿ.ಮೀ ದೂರ (${offer.pickupEtaMinutes} ನಿಮಿಷ). ಒಪ್ಪಿಕೊಳ್ಳಲು ಆ್ಯಪ್ ತೆರೆಯಿರಿ.`);
  });

  test('a driver with the app open hears the offer live and is pushed nothing', async () => {
    const pickup = near(PICKUP, -40);
    const driver = await driverAt(t, near(pickup, 0.4));
    const browser = service.subscribe();
    assertOk(await subscribe(t, driver, browser), 'subscribe');
    const { socket } = await TestSocket.connect(await realtimeUrl(t.app), driver.token);
    const skipped = await pushed(t, 'skipped');
    const ride = await book(await signUp(t), pickup);

    await socket.waitFor((m) => m.type === 'offer.created' && m.data?.rideId === ride.id, 'offer.created');
    await countReaches(t, 'skipped', skipped + 1);
    assert.deepEqual(service.to(browser.endpoint), [], 'nothing reached the push service');
    await socket.close();
  });
});

describe('ride changes and SOS alerts pushed to closed apps', () => {
  let op: OperatorApp;
  let t: TestApp;
  let service: LocalPushService;
  before(async () => {
    service = await new LocalPushService().start();
    op = await operatorApp({ push, dispatch: { mode: 'broadcast', batchMs: 2000, offerTtlMs: 15_000, maxMs: 120_000 } });
    t = op.t;
  });
  after(async () => {
    await t.close();
    await service.close();
  });

  test("the rider's closed app hears the driver accept, the pickup and the end of the ride", async () => {
    const rider = await signUp(t);
    const driver = await signUp(t, { role: 'DRIVER' });
    const browser = service.subscribe();
    assertOk(await subscribe(t, rider, browser), 'subscribe');
    const { booked } = await acceptedRide(t, rider, driver);

    const accepted = await service.waitFor(browser.endpoint, (p) => p.kind === 'ride' && p.rideId === booked.id, 'of the accept');
    assert.equal(accepted.payload.title, 'Driver on the way');
    assert.equal(accepted.urgency, 'high');
    assert.equal(accepted.topic, `ride-${booked.id}`, 'a newer change of the ride replaces one still held');
    assertOk(await setStatus(t, driver, booked.id, { status: 'PICKED', otp: booked.startOtp }), 'pickup');
    await service.waitFor(browser.endpoint, (p) => p.title === 'Ride started', 'of the pickup');
    assertOk(await setStatus(t, driver, booked.id, { status: 'COMPLETED', otp: booked.endOtp }), 'complete');
    const completed = await service.waitFor(browser.endpoint, (p) => p.title === 'Ride completed', 'of the end');
    assert.match(completed.payload.body, new RegExp(`Ride #${booked.id} is complete`));
    assert.equal(JSON.stringify(service.to(browser.endpoint)).includes(String(booked.startOtp)), false, 'no ride code in a push message');
  });

  test("a rider who chose Hindi hears the ride's changes in Hindi", async () => {
    const rider = await signUp(t);
    assertOk(asReply(await apiOf(t, rider).send(routes.settings.update, { body: { language: 'hi' } })), 'settings');
    const browser = service.subscribe();
    assertOk(await subscribe(t, rider, browser), 'subscribe');
    const { booked } = await acceptedRide(t, rider, await signUp(t, { role: 'DRIVER' }));

    const accepted = await service.waitFor(browser.endpoint, (p) => p.kind === 'ride' && p.rideId === booked.id, 'of the accept');
    assert.equal(accepted.payload.title, 'ड्राइवर रास्ते में है');
    assert.equal(accepted.payload.body, `एक ड्राइवर ने सवारी #${booked.id} स्वीकार कर ली है और आपके पिकअप स्थान की ओर आ रहा है।`);
  });

  test('an SOS reaches every operator whose console is closed', async () => {
    const browser = service.subscribe();
    assertOk(await subscribe(t, op.admin, browser), 'subscribe');
    const rider = await signUp(t);
    const { booked } = await pickedRide(t, rider, await signUp(t, { role: 'DRIVER' }));
    const raised = asReply(await apiOf(t, rider).send(routes.safety.sos, { params: { rideId: booked.id }, body: {} }));
    assertOk(raised, 'sos');

    const alert = await service.waitFor(browser.endpoint, (p) => p.kind === 'sos', 'of the SOS');
    assert.equal(alert.payload.incidentId, raised.body.incidentId);
    assert.equal(alert.payload.rideId, booked.id);
    assert.equal(alert.urgency, 'high');
  });

  test('a subscription the push service says is gone (410) is pruned: the next change sends nothing to it', async () => {
    const rider = await signUp(t);
    const driver = await signUp(t, { role: 'DRIVER' });
    const browser = service.subscribe();
    assertOk(await subscribe(t, rider, browser), 'subscribe');
    service.expire(browser.endpoint);
    const [pruned, none] = [await pushed(t, 'pruned'), await pushed(t, 'none')];
    const { booked } = await acceptedRide(t, rider, driver);

    assert.equal((await service.waitFor(browser.endpoint, (p) => p.rideId === booked.id, 'of the accept')).status, 410);
    await countReaches(t, 'pruned', pruned + 1);
    assertOk(await setStatus(t, driver, booked.id, { status: 'PICKED', otp: booked.startOtp }), 'pickup');
    await countReaches(t, 'none', none + 1);
    assert.equal(service.to(browser.endpoint).length, 1, 'the pruned subscription was not tried again');
  });

  test("a blocked, then erased account's subscriptions go with it, and no one else's", async () => {
    const rider = await signUp(t);
    const other = await signUp(t);
    assertOk(await subscribe(t, rider, service.subscribe()), 'subscribe');
    assertOk(await subscribe(t, other, service.subscribe()), 'subscribe');
    const { db } = connectDatabase(t.config.database);
    const subscriptionsOf = async (userId: number) => (await db.selectFrom('push_subscriptions').select('id').where('user_id', '=', userId).execute()).length;
    const as = (url: string, method: 'POST' | 'DELETE', payload?: object) => t.app.inject({ method, url, headers: { authorization: `Bearer ${op.admin.token}` }, payload });
    try {
      assert.equal((await as(`/admin/users/${rider.id}/block`, 'POST', { reason: 'asked for erasure' })).statusCode, 200);
      await eventually(async () => ((await subscriptionsOf(rider.id)) === 0 ? true : undefined), 'the blocked account has no subscription');
      assert.equal((await t.app.inject({ method: 'POST', url: '/push/subscriptions', payload: service.subscribe(), headers: { authorization: `Bearer ${rider.token}` } })).statusCode, 401, 'a blocked account cannot subscribe again');
      assert.equal((await as(`/admin/users/${rider.id}`, 'DELETE')).statusCode, 200);
      assert.equal(await subscriptionsOf(rider.id), 0);
      assert.equal(await subscriptionsOf(other.id), 1);
    } finally {
      await db.destroy();
    }
  });
});

describe('push on two instances sharing PostgreSQL and Redis', { skip: !process.env.REDIS_URL && 'production mode only (REDIS_URL)' }, () => {
  let op: OperatorApp;
  let other: FastifyInstance;
  let service: LocalPushService;
  before(async () => {
    service = await new LocalPushService().start();
    op = await operatorApp({ push, dispatch: { mode: 'broadcast', batchMs: 2000, offerTtlMs: 15_000, maxMs: 120_000 } });
    other = await buildApp(op.t.config, { clock: op.t.clock, logger: false });
  });
  after(async () => {
    await other?.close();
    await op.t.close();
    await service.close();
  });

  test("an SOS taken by one instance is not pushed to an operator whose console is connected to the other; once it closes, the next one is", async () => {
    const { t, admin } = op;
    const browser = service.subscribe();
    assertOk(await subscribe(t, admin, browser), 'subscribe');
    const { socket } = await TestSocket.connect(await realtimeUrl(other), admin.token);
    const sos = async () => {
      const rider = await signUp(t);
      const { booked } = await pickedRide(t, rider, await signUp(t, { role: 'DRIVER' }));
      const raised = asReply(await apiOf(t, rider).send(routes.safety.sos, { params: { rideId: booked.id }, body: {} }));
      assertOk(raised, 'sos');
      return raised.body.incidentId as number;
    };

    const skipped = await pushed(t, 'skipped');
    const first = await sos();
    await socket.waitFor((m) => m.type === 'incident.created' && m.data.id === first, 'incident.created on the other instance');
    await countReaches(t, 'skipped', skipped + 1);
    assert.deepEqual(service.to(browser.endpoint), [], 'the connected console was pushed nothing');

    await socket.close();
    // The other instance drops its claim as the socket closes; until it has, an SOS is (rightly) not pushed.
    const second = await eventually(async () => {
      const id = await sos();
      return (await service.waitFor(browser.endpoint, (p) => p.incidentId === id, 'of the SOS', 2_000).catch(() => undefined)) && id;
    }, 'an SOS pushed once the console closed', 10_000);
    assert.ok(second > first);
  });
});
