import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { call, createTestApp, type TestApp } from '../helpers/app.ts';
import { eventually } from '../helpers/dispatch.ts';
import { signUp, type TestUser } from '../helpers/factories.ts';
import { acceptedRide, assertOk, bookRide, eventsAbout, northOf, pickupOf, setStatus } from '../helpers/rides.ts';
import { TestSocket, realtimeUrl, type ServerMessage } from './socket-client.ts';
import { StraightRouter } from '../../src/platform/routing/straight-router.ts';

const UNAUTHORIZED = 4401;

/** Each user message directly follows the one before it, starting right after `ready`. */
function assertConsecutive(ready: ServerMessage, messages: ServerMessage[]): void {
  assert.deepEqual(
    messages.map((m) => m.seq),
    messages.map((_, i) => (ready.seq as number) + 1 + i),
  );
}

const statuses = (socket: TestSocket, rideId: number) =>
  socket.messages.filter((m) => m.type === 'ride.updated' && m.data.id === rideId).map((m) => m.data.status as string);

describe('the realtime channel', () => {
  let t: TestApp;
  let url: string;
  before(async () => {
    // A short auth timeout so the test of a silent client need not wait the real 5 s.
    t = await createTestApp({}, { realtime: { authTimeoutMs: 200 } });
    url = await realtimeUrl(t.app);
  });
  after(() => t.close());

  describe('authentication', () => {
    let rider: TestUser;
    before(async () => {
      rider = await signUp(t, { role: 'RIDER' });
    });

    test('a client that sends nothing is closed with 4401 when the auth time is up', async () => {
      const socket = await TestSocket.open(url);
      assert.equal((await socket.closedBy('no auth message')).code, UNAUTHORIZED);
      assert.deepEqual(socket.received, []);
    });

    test('a bad token is refused with 4401 and nothing else', async () => {
      const socket = await TestSocket.open(url);
      socket.send({ type: 'auth', token: 'not-a-token' });
      assert.equal((await socket.closedBy('bad token')).code, UNAUTHORIZED);
      assert.deepEqual(socket.received, []);
    });

    test('a refresh token is not an access token: 4401', async () => {
      const socket = await TestSocket.open(url);
      socket.send({ type: 'auth', token: rider.refreshToken });
      assert.equal((await socket.closedBy('refresh token')).code, UNAUTHORIZED);
      assert.deepEqual(socket.received, []);
    });

    test('a first message that is not auth is refused with 4401', async () => {
      for (const first of [{ type: 'ping' }, 'not json', { type: 'auth' }, { type: 'auth', token: 42 }]) {
        const socket = await TestSocket.open(url);
        socket.sendRaw(first);
        assert.equal((await socket.closedBy(JSON.stringify(first))).code, UNAUTHORIZED, JSON.stringify(first));
      }
    });

    test('an access token gets ready with the user id and the latest sequence number', async () => {
      const { socket, ready } = await TestSocket.connect(url, rider.token);
      assert.equal(ready.userId, rider.id);
      assert.ok(Number.isSafeInteger(ready.seq));
      await socket.close();
    });

    test('a connection whose token an account change ended is closed with 4401; one opened after the change stays', async () => {
      const user = await signUp(t, { role: 'RIDER' });
      const { socket: before } = await TestSocket.connect(url, user.token);
      // Signing up again with the e-mailed code changes the password, which ends every earlier token.
      const again = await signUp(t, { role: 'RIDER', email: user.email, name: user.name, password: 'a new password' });
      const { socket: after } = await TestSocket.connect(url, again.token);
      assert.equal((await before.closedBy('the account changed')).code, UNAUTHORIZED);
      after.send({ type: 'ping' });
      await after.waitFor((m) => m.type === 'pong', 'pong on the new connection');
      await after.close();
    });

    test('a plain GET without an upgrade describes the channel', async () => {
      const reply = await call(t.app, 'GET', '/realtime');
      assertOk(reply);
      assert.equal(reply.body.protocol, 'websocket');
      assert.equal(reply.body.authTimeoutMs, 200);
      assert.equal(reply.body.replayMs, 300_000);
    });
  });

  test("the rider's socket follows a whole ride and the driver's sees it change; a stranger's sees none of it", async () => {
    const rider = await signUp(t, { role: 'RIDER' });
    const driver = await signUp(t, { role: 'DRIVER' });
    const strangerUser = await signUp(t, { role: 'RIDER' });
    const riders = await TestSocket.connect(url, rider.token);
    const drivers = await TestSocket.connect(url, driver.token);
    const strangers = await TestSocket.connect(url, strangerUser.token);

    const { booked } = await acceptedRide(t, rider, driver);
    await riders.socket.waitFor((m) => m.type === 'ride.updated' && m.data.status === 'ACCEPTED', 'ACCEPTED at the rider');
    const positions = [northOf(pickupOf(booked), 2000), northOf(pickupOf(booked), 1500)];
    for (const position of positions) {
      assertOk(await call(t.app, 'POST', `/rides/location/${booked.id}`, { token: driver.token, body: position }), 'position');
    }
    await riders.socket.waitFor((m) => m.type === 'ride.position' && m.data.lat === positions[1].lat, 'the second position');
    assertOk(await setStatus(t, driver, booked.id, { status: 'PICKED', otp: booked.startOtp }), 'pickup');
    assertOk(await setStatus(t, driver, booked.id, { status: 'COMPLETED', otp: booked.endOtp }), 'complete');
    await riders.socket.waitFor((m) => m.type === 'ride.updated' && m.data.status === 'COMPLETED', 'COMPLETED at the rider');
    await riders.socket.waitFor((m) => m.type === 'notification.created' && m.data.eventType === 'RIDE_COMPLETED', 'the completion notice');
    await drivers.socket.waitFor((m) => m.type === 'ride.updated' && m.data.status === 'COMPLETED', 'COMPLETED at the driver');

    const seen = riders.socket.messages;
    assert.deepEqual(statuses(riders.socket, booked.id), ['REQUESTED', 'ACCEPTED', 'PICKED', 'COMPLETED']);
    const live = seen.filter((m) => m.type === 'ride.position');
    // Each with the router's minutes to the pickup (500 m apart: each routed anew, ride-etas.ts).
    const etas = await Promise.all(positions.map(async (p) => Math.ceil((await new StraightRouter().route(p, pickupOf(booked))).durationMinutes)));
    assert.deepEqual(live.map((m) => ({ ...m.data, at: undefined })), positions.map((p, i) => ({ rideId: booked.id, ...p, at: undefined, etaMinutes: etas[i] })));
    const order = seen.map((m) => (m.type === 'ride.updated' ? m.data.status : m.type));
    assert.ok(order.indexOf('ACCEPTED') < order.indexOf('ride.position') && order.lastIndexOf('ride.position') < order.indexOf('PICKED'), order.join(' '));
    assert.equal(seen.find((m) => m.type === 'ride.updated')!.data.startOtp, booked.startOtp, 'the rider sees the codes');
    const notices = seen.filter((m) => m.type === 'notification.created').map((m) => m.data.eventType as string);
    assert.deepEqual(notices, await eventsAbout(t, rider, booked.id), 'every notice of the history arrived live, in order');
    assertConsecutive(riders.ready, seen);
    for (const message of seen) assert.ok(!Number.isNaN(Date.parse(message.at!)), 'at is a time');

    assert.deepEqual(statuses(drivers.socket, booked.id), ['ACCEPTED', 'PICKED', 'COMPLETED']);
    assert.ok(!drivers.socket.messages.some((m) => m.type === 'ride.position'), 'positions go to the rider');
    assert.ok(drivers.socket.messages.every((m) => m.type !== 'ride.updated' || !('startOtp' in m.data)), 'the driver never sees the codes');
    assertConsecutive(drivers.ready, drivers.socket.messages);

    // A rating changes the ride without a status change: the other party's app hears it too.
    assertOk(await call(t.app, 'POST', `/rides/feedback/${booked.id}`, { token: rider.token, body: { rating: 5, comment: 'smooth' } }), 'feedback');
    await drivers.socket.waitFor((m) => m.type === 'ride.updated' && m.data.id === booked.id && m.data.riderRating === 5, 'the rating at the driver');

    // Messages reach each user in the order they were sent, so once the stranger hears of their own
    // booking, anything of the ride above would already have arrived.
    const own = await bookRide(t, strangerUser);
    await strangers.socket.waitFor((m) => m.type === 'ride.updated' && m.data.id === own.id, "the stranger's own booking");
    assert.deepEqual(
      strangers.socket.messages.map((m) => m.data.rideId ?? m.data.id),
      strangers.socket.messages.map(() => own.id),
      'the stranger hears only of their own ride',
    );
    await Promise.all([riders.socket.close(), drivers.socket.close(), strangers.socket.close()]);
  });

  test("a driver's position over the socket does what PUT /drivers/me/location and the ride's position report do", async () => {
    const rider = await signUp(t, { role: 'RIDER' });
    const driver = await signUp(t, { role: 'DRIVER' });
    const { socket: driverSocket } = await TestSocket.connect(url, driver.token);
    const { socket: riderSocket } = await TestSocket.connect(url, rider.token);
    const booked = await bookRide(t, rider);
    const pickup = pickupOf(booked);

    // Between rides: visible to riders, as after PUT /drivers/me/location.
    const waiting = northOf(pickup, 3000);
    driverSocket.send({ type: 'position', ...waiting });
    const nearby = await eventually(async () => {
      const reply = await call(t.app, 'GET', `/rides/drivers/nearby?lat=${waiting.lat}&lon=${waiting.lon}&radiusKm=1`);
      return reply.body.find((d: { driverId: number }) => d.driverId === driver.id);
    }, 'the driver in nearby search');
    assert.equal(nearby.lat, waiting.lat);
    const own = await call(t.app, 'GET', '/drivers/me/location', { token: driver.token });
    assertOk(own);
    assert.equal(own.body.lat, waiting.lat);

    // On a ride: the rider follows each position, and hears once that the driver is arriving.
    assertOk(await setStatus(t, driver, booked.id, { status: 'ACCEPTED', driverId: String(driver.id) }), 'accept');
    const route = [northOf(pickup, 1000), northOf(pickup, 200), northOf(pickup, 100)];
    for (const [i, position] of route.entries()) {
      driverSocket.send({ type: 'position', ...position });
      await riderSocket.waitFor((m) => m.type === 'ride.position' && m.data.lat === position.lat, `position ${i}`);
    }
    const followed = riderSocket.messages.filter((m) => m.type === 'ride.position').map((m) => m.data);
    assert.deepEqual(followed.map(({ rideId, lat, lon }) => ({ rideId, lat, lon })), route.map((p) => ({ rideId: booked.id, ...p })));
    await riderSocket.waitFor((m) => m.type === 'notification.created' && m.data.eventType === 'DRIVER_ARRIVING', 'the arrival notice');
    const status = await call(t.app, 'GET', `/rides/status/${booked.id}`);
    assert.equal(status.body.driverLat, route[2].lat, 'the ride shows the latest position');
    // Completing the ride is a later message than any second arrival notice would have been.
    assertOk(await setStatus(t, driver, booked.id, { status: 'PICKED', otp: booked.startOtp }), 'pickup');
    await riderSocket.waitFor((m) => m.type === 'ride.updated' && m.data.status === 'PICKED', 'PICKED');
    const arrivals = riderSocket.messages.filter((m) => m.type === 'notification.created' && m.data.eventType === 'DRIVER_ARRIVING');
    assert.equal(arrivals.length, 1, 'one arrival notice');
    assert.equal((await eventsAbout(t, rider, booked.id)).filter((e) => e === 'DRIVER_ARRIVING').length, 1);
    await Promise.all([riderSocket.close(), driverSocket.close()]);
  });

  test('what a client may not send is answered with an error saying why, it reaches no module, and the connection stays', async () => {
    const rider = await signUp(t, { role: 'RIDER' });
    const driver = await signUp(t, { role: 'DRIVER' });
    const { socket: riderSocket } = await TestSocket.connect(url, rider.token);
    const { socket: driverSocket } = await TestSocket.connect(url, driver.token);
    const errorAfter = async (socket: TestSocket, message: unknown) => {
      const before = socket.received.length;
      socket.sendRaw(message);
      const { code, message: text } = await socket.waitFor((m) => socket.received.indexOf(m) >= before && m.type === 'error', JSON.stringify(message));
      return `${code as string}: ${text as string}`;
    };
    assert.match(await errorAfter(riderSocket, { type: 'position', lat: 12.97, lon: 77.59 }), /^FORBIDDEN: "position" is sent by DRIVER only$/);
    assert.match(await errorAfter(riderSocket, 'not json'), /^UNKNOWN_MESSAGE: .*"ping", "position"/);
    assert.match(await errorAfter(riderSocket, { type: 'subscribe' }), /^UNKNOWN_MESSAGE: /);
    assert.match(await errorAfter(driverSocket, { type: 'position', lat: 91, lon: 77.59 }), /^VALIDATION_FAILED: position\.lat must be <= 90$/);
    assert.match(await errorAfter(driverSocket, { type: 'position', lat: '12.9', lon: 77.59 }), /^VALIDATION_FAILED: position\.lat must be number$/);
    assert.match(await errorAfter(driverSocket, { type: 'position', lat: 12.9 }), /^VALIDATION_FAILED: position must have required properties lon$/);
    // None of them reached the drivers module: the driver was never shown.
    assert.equal((await call(t.app, 'GET', '/drivers/me/location', { token: driver.token })).status, 404);
    riderSocket.send({ type: 'ping' });
    await riderSocket.waitFor((m) => m.type === 'pong', 'pong');
    assert.equal(riderSocket.ws.readyState, riderSocket.ws.OPEN);
    assert.equal(driverSocket.ws.readyState, driverSocket.ws.OPEN);
    await Promise.all([riderSocket.close(), driverSocket.close()]);
  });

  test('a message over the size limit closes the connection with 1009', async () => {
    const rider = await signUp(t, { role: 'RIDER' });
    const { socket } = await TestSocket.connect(url, rider.token);
    const { maxMessageBytes } = (await call(t.app, 'GET', '/realtime')).body;
    socket.sendRaw({ type: 'ping', padding: 'x'.repeat(maxMessageBytes) });
    assert.equal((await socket.closedBy('oversized message')).code, 1009);
  });
});
