import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../../src/app.ts';
import { call, createTestApp, type TestApp } from '../../helpers/app.ts';
import { signUp, type TestUser } from '../../helpers/factories.ts';
import { driverAt, eventually, near, PICKUP, report } from '../../helpers/dispatch.ts';
import { assertOk, bookRide, eventsAbout } from '../../helpers/rides.ts';
import { realtimeUrl, TestSocket } from '../../realtime/socket-client.ts';

// decisions.md "Scheduled rides, stops and changes": the rider and the driver holding a ride booked
// ahead are reminded 60 and 15 minutes before its time, once however many instances run; cancelling
// is free until 60 minutes before, the usual rule inside (a ride a driver took ahead counts as
// ACCEPTED). The test clock decides what is due.

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
const ROUND_MS = 60;
const settings = { dispatch: { mode: 'nearest' as const, batchMs: ROUND_MS, offerTtlMs: 15_000, maxMs: 120_000 }, accessTokenTtlSeconds: 20 * 86_400 };

const trip = (pickup: { lat: number; lon: number }) => ({ pickupLat: pickup.lat, pickupLon: pickup.lon, dropLat: pickup.lat + 0.05, dropLon: pickup.lon });

/** A ride booked a day ahead that a driver near it took. */
async function takenAhead(t: TestApp, pickup: { lat: number; lon: number }, ms = DAY): Promise<{ rider: TestUser; driver: TestUser; ride: { id: number; fare: number } }> {
  const rider = await signUp(t);
  const driver = await driverAt(t, near(pickup, 0.5));
  const ride = await bookRide(t, rider, { ...trip(pickup), scheduledAt: new Date(t.clock.now() + ms).toISOString() });
  assertOk(await call(t.app, 'POST', `/drivers/me/upcoming/${ride.id}/accept`, { token: driver.token }));
  return { rider, driver, ride };
}

/** Several rounds of both instances' timers (each looks every ROUND_MS): what could go out twice has had every chance to. */
const severalRounds = () => new Promise((resolve) => setTimeout(resolve, 15 * ROUND_MS));

describe('reminders on two instances sharing one database', () => {
  let t: TestApp;
  let other: FastifyInstance;
  before(async () => {
    t = await createTestApp(settings);
    // Same database and clock, its own timers (and its own event bus under Redis).
    other = await buildApp({ ...t.config, redisKeyPrefix: `test:${randomBytes(6).toString('hex')}:` }, { clock: t.clock, logger: false });
  });
  after(async () => {
    await other.close();
    await t.close();
  });

  test('the rider and the driver are reminded 60 and 15 minutes before, each reminder once', async () => {
    const { rider, driver, ride } = await takenAhead(t, PICKUP);
    // The rider listens on both instances: each tells its own listeners what it wrote, so every
    // reminder written twice would be heard twice.
    const sockets = await Promise.all([t.app, other].map(async (app) => (await TestSocket.connect(await realtimeUrl(app), rider.token)).socket));
    const heard = () => sockets.flatMap((socket) => socket.messages.filter((m) => m.type === 'notification.created' && m.data.eventType === 'RIDE_REMINDER'));
    const reminders = async (user: TestUser) => (await eventsAbout(t, user, ride.id)).filter((event) => event === 'RIDE_REMINDER').length;

    t.clock.advance(DAY - 60 * MINUTE + MINUTE);
    await eventually(async () => (heard().length > 0 ? true : undefined), 'the 60-minute reminder, live');
    await severalRounds();
    assert.deepEqual({ rider: await reminders(rider), driver: await reminders(driver), heard: heard().length }, { rider: 1, driver: 1, heard: 1 });
    assert.match(heard()[0].data.message, /in 59 minutes/);

    // Online for the check 15 minutes before, on both instances (without Redis each keeps its own live
    // positions), reported before the clock reaches it: a look of either instance between the clock's
    // move and the reports would find the driver offline and give the ride to dispatch.
    t.clock.advance(43 * MINUTE + 30_000);
    await report(t, driver, near(PICKUP, 0.5));
    assertOk(await call(other, 'PUT', '/drivers/me/location', { token: driver.token, body: near(PICKUP, 0.5) }));
    t.clock.advance(90_000);
    await eventually(async () => (heard().length > 1 ? true : undefined), 'the 15-minute reminder, live');
    await severalRounds();
    assert.deepEqual({ rider: await reminders(rider), driver: await reminders(driver), heard: heard().length }, { rider: 2, driver: 2, heard: 2 });
    // Each socket's messages come together, and either instance may have written either reminder: by content, not place.
    assert.deepEqual(heard().map((m) => /in (\d+) minutes/.exec(m.data.message)?.[1]).sort(), ['14', '59']);
    await Promise.all(sockets.map((socket) => socket.close()));
  });
});

describe('cancelling a ride booked ahead', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp(settings);
  });
  after(() => t.close());

  let area = 0;
  const place = () => {
    area += 1;
    return { lat: PICKUP.lat + area * 0.5, lon: PICKUP.lon };
  };
  const cancel = (rider: TestUser, rideId: number) => call(t.app, 'POST', `/rides/cancel/${rideId}`, { token: rider.token, body: { reason: 'plans changed' } });
  const quote = async (rider: TestUser, rideId: number) => (await call(t.app, 'GET', `/rides/cancel/${rideId}`, { token: rider.token })).body.cancellationFee;

  test('free until 60 minutes before even when a driver took it; inside, a taken ride is charged like an accepted one and an untaken one stays free', async () => {
    const early = await takenAhead(t, place());
    assert.equal(await quote(early.rider, early.ride.id), null);
    const free = await cancel(early.rider, early.ride.id);
    assertOk(free);
    assert.equal(free.body.cancellationFee, null);
    assert.deepEqual(await eventsAbout(t, early.driver, early.ride.id), ['RIDE_CANCELLED'], 'the driver who took it is told');

    const late = await takenAhead(t, place());
    const untakenRider = await signUp(t);
    const untaken = await bookRide(t, untakenRider, { ...trip(place()), scheduledAt: new Date(t.clock.now() + DAY).toISOString() });
    t.clock.advance(DAY - 59 * MINUTE);
    const fee = await quote(late.rider, late.ride.id);
    assert.ok(fee !== null && fee >= 20 && fee <= 60, `an accepted ride's fee (20 % clamped to ₹20–₹60), got ${fee}`);
    const charged = await cancel(late.rider, late.ride.id);
    assertOk(charged);
    assert.equal(charged.body.cancellationFee, fee, 'charged what the quote said');
    const stillFree = await cancel(untakenRider, untaken.id);
    assertOk(stillFree);
    assert.equal(stillFree.body.cancellationFee, null, 'no driver holds it: the REQUESTED rule, free');
  });
});
