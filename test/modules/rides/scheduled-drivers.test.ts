import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { call, createTestApp, type TestApp } from '../../helpers/app.ts';
import { signUp, type TestUser } from '../../helpers/factories.ts';
import { driverAt, near, offerOf, PICKUP, report } from '../../helpers/dispatch.ts';
import { assertError, assertOk, bookRide, eventsAbout } from '../../helpers/rides.ts';
import { realtimeUrl, TestSocket } from '../../realtime/socket-client.ts';

// decisions.md "Scheduled rides, stops and changes": drivers see the rides booked ahead they can
// serve (GET /drivers/me/upcoming: their vehicle, within dispatch's widest radius of where they are)
// and take one ahead unless it overlaps a ride they hold (its quoted minutes, 30 minutes either side).
// 15 minutes before its time the ride is ACCEPTED for them if they are online, else it goes back to
// dispatch and the rider is told. The test clock decides what is due.

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

describe('drivers and rides booked ahead', () => {
  let t: TestApp;
  before(async () => {
    // The clock moves days ahead here: tokens outlive the whole file.
    t = await createTestApp({ dispatch: { mode: 'nearest', batchMs: 60, offerTtlMs: 15_000, maxMs: 120_000 }, accessTokenTtlSeconds: 20 * 86_400 });
  });
  after(() => t.close());

  let area = 0;
  const place = () => {
    area += 1;
    return { lat: PICKUP.lat + area * 0.5, lon: PICKUP.lon };
  };
  const at = (ms: number) => new Date(t.clock.now() + ms).toISOString();
  const bookAhead = (pickup: { lat: number; lon: number }, ms: number, body: Record<string, unknown> = {}) =>
    signUp(t).then((rider) => bookRide(t, rider, { pickupLat: pickup.lat, pickupLon: pickup.lon, dropLat: pickup.lat + 0.05, dropLon: pickup.lon, scheduledAt: at(ms), ...body }).then((ride) => ({ rider, ride })));
  const upcoming = async (driver: TestUser) => {
    const reply = await call(t.app, 'GET', '/drivers/me/upcoming', { token: driver.token });
    assertOk(reply);
    return { open: (reply.body.open as Array<{ id: number }>).map((ride) => ride.id), taken: (reply.body.taken as Array<{ id: number }>).map((ride) => ride.id) };
  };
  const take = (driver: TestUser, rideId: number) => call(t.app, 'POST', `/drivers/me/upcoming/${rideId}/accept`, { token: driver.token });
  const statusOf = async (user: TestUser, rideId: number) => (await call(t.app, 'GET', `/rides/status/${rideId}`, { token: user.token })).body;

  test('a driver sees the rides ahead their vehicle serves near them, takes one, and cannot take an overlapping one', async () => {
    const pickup = place();
    const driver = await driverAt(t, near(pickup, 0.5));
    const bike = await driverAt(t, near(pickup, 0.5), 'bike');
    const far = await driverAt(t, near(pickup, 20));
    const first = await bookAhead(pickup, DAY);
    const overlapping = await bookAhead(pickup, DAY + 30 * MINUTE);
    const later = await bookAhead(pickup, DAY + 4 * 60 * MINUTE);
    const now = await bookRide(t, await signUp(t), { pickupLat: pickup.lat, pickupLon: pickup.lon, dropLat: pickup.lat + 0.05, dropLon: pickup.lon });

    const seen = await upcoming(driver);
    assert.deepEqual(seen.open, [first.ride.id, overlapping.ride.id, later.ride.id], 'soonest first, the ride booked for now not among them');
    assert.deepEqual(await upcoming(bike), { open: [], taken: [] }, 'a bike does not serve mini rides');
    assert.deepEqual(await upcoming(far), { open: [], taken: [] }, 'beyond the widest search radius');
    assert.ok(!seen.open.includes(now.id));

    const taken = await take(driver, first.ride.id);
    assertOk(taken);
    assert.deepEqual({ status: taken.body.status, driverId: taken.body.driverId }, { status: 'REQUESTED', driverId: driver.id });
    assert.equal((await statusOf(first.rider, first.ride.id)).driverId, driver.id, 'the rider sees who took it');
    assertError(await take(driver, overlapping.ride.id), 409, 'SCHEDULE_OVERLAP');
    assertError(await take(far, first.ride.id), 409);
    assertOk(await take(driver, later.ride.id));
    assert.deepEqual(await upcoming(driver), { open: [overlapping.ride.id], taken: [first.ride.id, later.ride.id] });
  });

  test('two overlapping rides taken at once by one driver: only one is theirs', async () => {
    const pickup = place();
    const driver = await driverAt(t, near(pickup, 0.5));
    const a = await bookAhead(pickup, 2 * DAY);
    const b = await bookAhead(pickup, 2 * DAY + 10 * MINUTE);
    const replies = await Promise.all([take(driver, a.ride.id), take(driver, b.ride.id)]);
    assert.deepEqual(replies.map((reply) => reply.status).sort(), [200, 409]);
    assertError(replies.find((reply) => reply.status === 409)!, 409, 'SCHEDULE_OVERLAP');
  });

  test('online 15 minutes before, the driver who took the ride has it ACCEPTED; offline, it goes back to dispatch and the rider is told', async () => {
    const pickup = place();
    const shows = await driverAt(t, near(pickup, 0.5));
    const elsewhere = place();
    const missing = await driverAt(t, near(elsewhere, 0.5));
    const kept = await bookAhead(pickup, DAY);
    const lost = await bookAhead(elsewhere, DAY);
    assertOk(await take(shows, kept.ride.id));
    assertOk(await take(missing, lost.ride.id));
    const riderSocket = await TestSocket.connect(await realtimeUrl(t.app), kept.rider.token);
    const lostSocket = await TestSocket.connect(await realtimeUrl(t.app), lost.rider.token);

    // 16 minutes before: still theirs, still REQUESTED.
    t.clock.advance(DAY - 16 * MINUTE);
    await report(t, shows, near(pickup, 0.5));
    const stand = await driverAt(t, near(elsewhere, 1));
    assert.equal((await statusOf(kept.rider, kept.ride.id)).status, 'REQUESTED');

    t.clock.advance(2 * MINUTE);
    await report(t, shows, near(pickup, 0.5));
    await report(t, stand, near(elsewhere, 1));
    await riderSocket.socket.waitFor((m) => m.type === 'ride.updated' && m.data.id === kept.ride.id && m.data.status === 'ACCEPTED', 'the ride ACCEPTED for the driver who took it');
    const mine = await statusOf(kept.rider, kept.ride.id);
    assert.deepEqual({ status: mine.status, driverId: mine.driverId }, { status: 'ACCEPTED', driverId: shows.id });
    assert.ok((await eventsAbout(t, kept.rider, kept.ride.id)).includes('RIDE_ACCEPTED'));

    // The driver who did not come online loses the ride: another one nearby is offered it.
    await offerOf(t, stand, lost.ride.id);
    const theirs = await statusOf(lost.rider, lost.ride.id);
    assert.deepEqual({ status: theirs.status, driverId: theirs.driverId }, { status: 'REQUESTED', driverId: null });
    await lostSocket.socket.waitFor((m) => m.type === 'notification.created' && m.data.eventType === 'DRIVER_NO_SHOW', 'the rider told, live');
    assert.ok((await eventsAbout(t, missing, lost.ride.id)).includes('DRIVER_NO_SHOW'), 'the driver told too');
    assert.deepEqual((await upcoming(missing)).taken, []);
    await Promise.all([riderSocket.socket.close(), lostSocket.socket.close()]);
  });
});
