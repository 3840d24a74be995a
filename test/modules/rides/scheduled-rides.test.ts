import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { zoneCentre, zoneOf } from '../../../src/platform/geo/zones.ts';
import { call, type TestApp } from '../../helpers/app.ts';
import { createTestAppWithAdmin, signUp, type TestUser } from '../../helpers/factories.ts';
import { driverAt, eventually, near, offerOf, offersOf, PICKUP, report } from '../../helpers/dispatch.ts';
import { accept, assertError, assertOk, bookRide } from '../../helpers/rides.ts';
import { realtimeUrl, TestSocket } from '../../realtime/socket-client.ts';

// decisions.md "Scheduled rides, stops and changes": a ride booked ahead (`scheduledAt`, 30 minutes
// to 30 days away by default) is quoted for its time without surge and held; it stays REQUESTED out
// of /rides/requested and dispatch until SCHEDULE_DISPATCH_LEAD_MINUTES (20) before its time, then
// is offered like a ride booked now. The test clock decides what is due; rounds run every ROUND_MS.

const ROUND_MS = 60;
const MINUTE = 60_000;
const LEAD_MS = 20 * MINUTE;
const DAY = 24 * 60 * MINUTE;

describe('rides booked ahead', () => {
  let t: TestApp;
  let admin: TestUser;
  before(async () => {
    // The clock moves days ahead here: tokens outlive the whole file.
    ({ t, admin } = await createTestAppWithAdmin({ dispatch: { mode: 'nearest', batchMs: ROUND_MS, offerTtlMs: 15_000, maxMs: 120_000 }, accessTokenTtlSeconds: 20 * 86_400 }));
  });
  after(() => t.close());

  // Each test works in its own neighbourhood, far from the others' drivers and riders.
  let area = 0;
  const place = () => {
    area += 1;
    return zoneCentre(zoneOf({ lat: PICKUP.lat + area * 0.5, lon: PICKUP.lon }));
  };
  const tripFrom = (pickup: { lat: number; lon: number }) => ({ pickupLat: pickup.lat, pickupLon: pickup.lon, dropLat: pickup.lat + 0.05, dropLon: pickup.lon });
  const at = (ms: number) => new Date(t.clock.now() + ms).toISOString();
  const book = (rider: TestUser, body: Record<string, unknown>) => call(t.app, 'POST', '/rides/book', { token: rider.token, body: { pickupLocation: 'Home', dropLocation: 'Airport', ...body } });
  const requestedIds = async () => {
    const reply = await call(t.app, 'GET', '/rides/requested?limit=100', { token: admin.token });
    assertOk(reply);
    return (reply.body as Array<{ id: number }>).map((ride) => ride.id);
  };

  test('a ride booked for tomorrow is not offered today; at its lead time it enters dispatch like a ride booked now', async () => {
    const pickup = place();
    const driver = await driverAt(t, near(pickup, 0.3));
    const rider = await signUp(t);
    const riderSocket = await TestSocket.connect(await realtimeUrl(t.app), rider.token);
    const scheduledAt = at(DAY);
    const booked = await bookRide(t, rider, { ...tripFrom(pickup), scheduledAt });
    assert.equal(booked.status, 'REQUESTED');
    assert.equal(booked.scheduledAt, scheduledAt);
    assert.ok(booked.startOtp && booked.endOtp, 'the rider has the codes from the booking');
    const mine = await call(t.app, 'GET', `/rides/status/${booked.id}`, { token: rider.token });
    assert.equal(mine.body.scheduledAt, scheduledAt, "the rider's view carries the time");

    assert.ok(!(await requestedIds()).includes(booked.id), 'not in /rides/requested');
    assertError(await accept(t, driver, booked.id), 409, 'RIDE_NOT_YET_DISPATCHED');

    // A minute before the lead time: a ride booked now in the next neighbourhood is offered (a round
    // ran on the moved clock), the one booked ahead is not.
    t.clock.advance(DAY - LEAD_MS - MINUTE);
    await report(t, driver, near(pickup, 0.3));
    const elsewhere = place();
    const other = await driverAt(t, near(elsewhere, 0.3));
    const now = await bookRide(t, await signUp(t), tripFrom(elsewhere));
    await offerOf(t, other, now.id);
    assert.deepEqual(await offersOf(t, driver), [], 'no offer of the ride booked ahead before its lead time');
    assert.ok(!(await requestedIds()).includes(booked.id));

    t.clock.advance(2 * MINUTE);
    await report(t, driver, near(pickup, 0.3));
    const offer = await offerOf(t, driver, booked.id);
    assert.equal(offer.fare, booked.fare, 'offered at the fare held since the booking');
    assert.ok((await requestedIds()).includes(booked.id), 'now in /rides/requested');
    const accepted = await call(t.app, 'POST', `/drivers/me/offers/${offer.offerId}/accept`, { token: driver.token });
    assertOk(accepted);
    assert.equal(accepted.body.status, 'ACCEPTED');
    assert.equal(accepted.body.scheduledAt, scheduledAt);
    await riderSocket.socket.waitFor((m) => m.type === 'ride.updated' && m.data.id === booked.id && m.data.status === 'ACCEPTED', 'the accept, live');
    await riderSocket.socket.close();
  });

  test('scheduledAt outside the window is 400 naming the rule; inside it, both ends are accepted', async () => {
    const rider = await signUp(t);
    const trip = tripFrom(place());
    assertError(await book(rider, { ...trip, scheduledAt: at(29 * MINUTE) }), 400, 'SCHEDULE_TOO_SOON');
    assertError(await book(rider, { ...trip, scheduledAt: at(30 * DAY + MINUTE) }), 400, 'SCHEDULE_TOO_FAR');
    assertError(await book(rider, { ...trip, scheduledAt: 'tomorrow morning' }), 400);
    assertOk(await book(rider, { ...trip, scheduledAt: at(30 * MINUTE) }));
    assertOk(await book(rider, { ...trip, scheduledAt: at(30 * DAY) }));
  });

  test('the fare is quoted without surge and held; rides booked ahead are not demand until they enter dispatch', async () => {
    const zones = async () => {
      const reply = await call(t.app, 'GET', '/admin/zones', { token: admin.token });
      assertOk(reply);
      return reply.body.zones as Array<{ zone: string; demand: number; multiplier: number }>;
    };
    const busy = place();
    const zone = zoneOf(busy);
    const demandIs = (riders: number) => eventually(async () => (await zones()).find((entry) => entry.zone === zone && entry.demand === riders), `zone ${zone} to have ${riders} riders waiting`);
    for (let i = 0; i < 4; i++) await bookRide(t, await signUp(t), tripFrom(busy));
    await demandIs(4);
    // Booked ahead, these riders wait for their time: the zone's demand is the one more booked for now (5, never 9).
    for (let i = 0; i < 4; i++) await bookRide(t, await signUp(t), { ...tripFrom(busy), scheduledAt: at(DAY) });
    await bookRide(t, await signUp(t), tripFrom(busy));
    const surged = await demandIs(5);
    assert.ok(surged.multiplier > 1, `the zone surges (${surged.multiplier})`);
    const nowFare = (await bookRide(t, await signUp(t), tripFrom(busy))).fare;
    const ahead = await bookRide(t, await signUp(t), { ...tripFrom(busy), scheduledAt: at(DAY) });
    assert.equal(ahead.surgeMultiplier, 1);
    assert.ok(ahead.fare < nowFare, `₹${ahead.fare} ahead, ₹${nowFare} now under surge`);
    t.clock.advance(DAY - LEAD_MS + MINUTE);
    const offered = await eventually(async () => ((await requestedIds()).includes(ahead.id) ? true : undefined), 'the ride to enter dispatch');
    assert.ok(offered);
    const held = await call(t.app, 'GET', `/rides/status/${ahead.id}`, { token: admin.token });
    assert.deepEqual({ fare: held.body.fare, surge: held.body.surgeMultiplier }, { fare: ahead.fare, surge: 1 }, 'the fare held');
  });

  test('the ride waits through a restart and enters dispatch on the restarted app', async () => {
    const pickup = place();
    const booked = await bookRide(t, await signUp(t), { ...tripFrom(pickup), scheduledAt: at(2 * DAY) });
    await t.restart();
    assert.ok(!(await requestedIds()).includes(booked.id));
    t.clock.advance(2 * DAY - LEAD_MS);
    await eventually(async () => ((await requestedIds()).includes(booked.id) ? true : undefined), 'the ride to enter dispatch after the restart');
  });
});
