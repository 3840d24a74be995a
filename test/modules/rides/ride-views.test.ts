import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { call, createTestApp, type TestApp } from '../../helpers/app.ts';
import { signUp, type TestUser } from '../../helpers/factories.ts';
import { realtimeUrl, TestSocket } from '../../realtime/socket-client.ts';
import { accept, assertError, assertOk, bookRide, northOf, pickupOf, setStatus, signUpMany, TRIP } from '../../helpers/rides.ts';

// decisions.md "Rides": the ride's rider sees the whole ride with both codes, its driver the same
// without codes, anyone else the contract's public subset, with the driver's position only while
// ACCEPTED, while PICKED only if the rider shares trips, never after the ride ends.

const PUBLIC_FIELDS = ['acceptedAt', 'createdAt', 'driverId', 'driverLat', 'driverLocationUpdatedAt', 'driverLon', 'fare', 'id', 'riderId', 'status'];

describe('views of one ride, by caller', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp();
  });
  after(() => t.close());

  const status = async (rideId: number, user?: TestUser) => {
    const reply = await call(t.app, 'GET', `/rides/status/${rideId}`, { token: user?.token });
    assertOk(reply, 'status');
    return reply.body;
  };

  /** Every view at one moment of the ride; `position` says whether strangers see where the driver is. */
  async function expectViews(rideId: number, parties: { rider: TestUser; driver: TestUser; stranger: TestUser }, codes: { startOtp: string; endOtp: string }, publicPosition: boolean) {
    const asRider = await status(rideId, parties.rider);
    assert.equal(asRider.startOtp, codes.startOtp, 'the rider sees the start code');
    assert.equal(asRider.endOtp, codes.endOtp, 'the rider sees the end code');
    assert.equal(asRider.pickupLocation, 'MG Road', 'the rider sees the places');
    assert.equal(typeof asRider.pickupLat, 'number');

    const asDriver = await status(rideId, parties.driver);
    assert.ok(!('startOtp' in asDriver) && !('endOtp' in asDriver), 'the driver sees no code');
    // Before accepting, the driver is anyone else.
    if (asDriver.status !== 'REQUESTED') assert.equal(asDriver.dropLocation, 'Koramangala', 'the driver sees the places');
    else assert.deepEqual(Object.keys(asDriver).sort(), PUBLIC_FIELDS);

    for (const viewer of [parties.stranger, undefined]) {
      const view = await status(rideId, viewer);
      assert.deepEqual(Object.keys(view).sort(), PUBLIC_FIELDS, `${viewer ? 'a stranger' : 'anonymous'} gets the public subset`);
      assert.equal(view.driverLat !== null, publicPosition, `${viewer ? 'a stranger' : 'anonymous'}: position ${publicPosition ? 'shown' : 'hidden'} while ${view.status}`);
    }
  }

  async function rideThroughEveryStatus(sharesTrips: boolean) {
    const rider = await signUp(t);
    const driver = await signUp(t, { role: 'DRIVER' });
    const stranger = await signUp(t);
    if (!sharesTrips) assertOk(await call(t.app, 'PUT', '/user-settings', { token: rider.token, body: { tripSharingDefault: false } }));
    const parties = { rider, driver, stranger };
    const booked = await bookRide(t, rider);
    await expectViews(booked.id, parties, booked, false);

    assertOk(await accept(t, driver, booked.id));
    assertOk(await call(t.app, 'POST', `/rides/location/${booked.id}`, { token: driver.token, body: northOf(pickupOf(booked), 2000) }));
    await expectViews(booked.id, parties, booked, true);

    assertOk(await setStatus(t, driver, booked.id, { status: 'PICKED', otp: booked.startOtp }));
    await expectViews(booked.id, parties, booked, sharesTrips);

    assertOk(await setStatus(t, driver, booked.id, { status: 'COMPLETED', otp: booked.endOtp }));
    await expectViews(booked.id, parties, booked, false);
    // The participants still see where the ride ended.
    assert.equal(typeof (await status(booked.id, rider)).driverLat, 'number');
  }

  test('at each status, with trip sharing on (the default)', () => rideThroughEveryStatus(true));
  test('at each status, with trip sharing off', () => rideThroughEveryStatus(false));

  test('a cancelled ride shows no position to strangers', async () => {
    const rider = await signUp(t);
    const driver = await signUp(t, { role: 'DRIVER' });
    const booked = await bookRide(t, rider);
    assertOk(await accept(t, driver, booked.id));
    assertOk(await call(t.app, 'POST', `/rides/location/${booked.id}`, { token: driver.token, body: northOf(pickupOf(booked), 500) }));
    assertOk(await call(t.app, 'POST', `/rides/cancel/${booked.id}`, { token: driver.token }));
    const view = await status(booked.id);
    assert.deepEqual([view.driverLat, view.driverLon, view.driverLocationUpdatedAt], [null, null, null]);
  });

  test('a bad token on the public status is a 401, not a silent public view', async () => {
    const rider = await signUp(t);
    const booked = await bookRide(t, rider);
    assertError(await call(t.app, 'GET', `/rides/status/${booked.id}`, { token: 'not-a-token' }), 401);
  });

  test('lists use the caller\'s view: the rider\'s history has the codes, the driver\'s not', async () => {
    const rider = await signUp(t);
    const driver = await signUp(t, { role: 'DRIVER' });
    const booked = await bookRide(t, rider);
    assertOk(await accept(t, driver, booked.id));
    const mine = (await call(t.app, 'GET', '/rides/history', { token: rider.token })).body.find((r: { id: number }) => r.id === booked.id);
    assert.deepEqual([mine.startOtp, mine.endOtp], [booked.startOtp, booked.endOtp]);
    const theirs = (await call(t.app, 'GET', '/rides/history', { token: driver.token })).body.find((r: { id: number }) => r.id === booked.id);
    assert.ok(!('startOtp' in theirs) && !('endOtp' in theirs));
  });
});

describe('who is coming: the driver and the vehicle in the rider\'s view', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp();
  });
  after(() => t.close());

  test("once accepted, the rider's status, active list, history and ride.updated carry the driver's name, vehicle type, model and plate; the public view does not", async () => {
    const rider = await signUp(t);
    const driver = await signUp(t, { role: 'DRIVER', name: 'Ravi Kumar' });
    assertOk(await call(t.app, 'PUT', '/drivers/me/profile', { token: driver.token, body: { vehicleType: 'mini', vehicleNumber: 'KA01AB1234', vehicleModel: 'Swift' } }));
    const { socket } = await TestSocket.connect(await realtimeUrl(t.app), rider.token);
    try {
      const booked = await bookRide(t, rider);
      assert.ok(!('driverName' in booked), 'nobody is coming yet');
      assert.ok(!('driverName' in (await status(t, booked.id, rider))));
      assertOk(await accept(t, driver, booked.id));

      const whoIsComing = { driverName: 'Ravi Kumar', vehicleType: 'mini', vehicleModel: 'Swift', vehicleNumber: 'KA01AB1234' };
      const pick = (ride: Record<string, unknown>) => Object.fromEntries(Object.keys(whoIsComing).map((key) => [key, ride[key]]));
      assert.deepEqual(pick(await status(t, booked.id, rider)), whoIsComing, 'GET /rides/status/{id} with the rider\'s token');
      const active = (await call(t.app, 'GET', '/rides/active', { token: rider.token })).body;
      assert.deepEqual(pick(active.find((r: { id: number }) => r.id === booked.id)), whoIsComing, 'GET /rides/active');
      const history = (await call(t.app, 'GET', '/rides/history', { token: rider.token })).body;
      assert.deepEqual(pick(history.find((r: { id: number }) => r.id === booked.id)), whoIsComing, 'GET /rides/history');
      const updated = await socket.waitFor((m) => m.type === 'ride.updated' && m.data.id === booked.id && m.data.status === 'ACCEPTED', 'ride.updated on accept');
      assert.deepEqual(pick(updated.data), whoIsComing, 'ride.updated');

      for (const viewer of [undefined, await signUp(t)]) {
        const view = await status(t, booked.id, viewer);
        for (const field of Object.keys(whoIsComing)) assert.ok(!(field in view), `the public view has no ${field}`);
      }
      const requested = await call(t.app, 'GET', '/rides/requested?limit=200');
      assert.doesNotMatch(JSON.stringify(requested.body), /KA01AB1234|Ravi Kumar/);
    } finally {
      socket.ws.close();
    }
  });

  test('a driver without a vehicle profile shows a name and no vehicle', async () => {
    const rider = await signUp(t);
    const driver = await signUp(t, { role: 'DRIVER', name: 'Plain Driver' });
    const booked = await bookRide(t, rider);
    assertOk(await accept(t, driver, booked.id));
    const view = await status(t, booked.id, rider);
    assert.deepEqual([view.driverName, view.vehicleType, view.vehicleModel, view.vehicleNumber], ['Plain Driver', null, null, null]);
  });
});

async function status(t: TestApp, rideId: number, user?: TestUser) {
  const reply = await call(t.app, 'GET', `/rides/status/${rideId}`, { token: user?.token });
  assertOk(reply, 'status');
  return reply.body;
}

describe('GET /rides/active', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp();
  });
  after(() => t.close());

  test("a rider's open rides and a driver's active one, each in the caller's view; finished ones are gone", async () => {
    const rider = await signUp(t);
    const driver = await signUp(t, { role: 'DRIVER' });
    const first = await bookRide(t, rider);
    const second = await bookRide(t, rider);
    const finished = await bookRide(t, rider);
    assertOk(await call(t.app, 'POST', `/rides/cancel/${finished.id}`, { token: rider.token }));
    assertOk(await accept(t, driver, first.id));

    const asRider = await call(t.app, 'GET', '/rides/active', { token: rider.token });
    assertOk(asRider);
    assert.deepEqual(asRider.body.map((r: { id: number }) => r.id), [second.id, first.id], 'newest first, the cancelled one left out');
    for (const ride of asRider.body) {
      const booked = ride.id === first.id ? first : second;
      assert.deepEqual([ride.startOtp, ride.endOtp], [booked.startOtp, booked.endOtp], 'a restarted app finds its codes');
    }

    const asDriver = await call(t.app, 'GET', '/rides/active', { token: driver.token });
    assertOk(asDriver);
    assert.deepEqual(asDriver.body.map((r: { id: number; status: string }) => [r.id, r.status]), [[first.id, 'ACCEPTED']]);
    assert.ok(!('startOtp' in asDriver.body[0]), "the driver's view has no codes");

    const nobody = await call(t.app, 'GET', '/rides/active', { token: (await signUp(t)).token });
    assert.deepEqual(nobody.body, []);
    assertError(await call(t.app, 'GET', '/rides/active'), 401);
  });
});

describe('booking: what the server decides', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp({ maxOpenRidesPerRider: 3 });
  });
  after(() => t.close());

  test('a rider holds at most MAX_OPEN_RIDES_PER_RIDER open rides; the next booking is 409 until one ends', async () => {
    const rider = await signUp(t);
    const rides = [await bookRide(t, rider), await bookRide(t, rider), await bookRide(t, rider)];
    assertError(await call(t.app, 'POST', '/rides/book', { token: rider.token, body: { pickupLocation: 'A' } }), 409, 'TOO_MANY_OPEN_RIDES');
    assertOk(await call(t.app, 'POST', `/rides/cancel/${rides[0].id}`, { token: rider.token }));
    await bookRide(t, rider);
    assertError(await call(t.app, 'POST', '/rides/book', { token: rider.token, body: {} }), 409, 'TOO_MANY_OPEN_RIDES');
    // Another rider is not held back.
    await bookRide(t, await signUp(t));
  });

  test('bookings racing from one account never exceed the limit', async () => {
    const rider = await signUp(t);
    const replies = await Promise.all(Array.from({ length: 12 }, () => call(t.app, 'POST', '/rides/book', { token: rider.token, body: { pickupLocation: 'race' } })));
    assert.deepEqual(
      replies.map((r) => r.status).sort(),
      [200, 200, 200, ...Array(9).fill(409)],
      replies.map((r) => `${r.status} ${r.body.code ?? ''}`).join(', '),
    );
    const open = await call(t.app, 'GET', '/rides/active', { token: rider.token });
    assert.equal(open.body.length, 3);
  });

  test('many riders booking at once each get their own rides and notices, and each is held to the limit', async () => {
    const riders = await signUpMany(t, 8, 'USER');
    const attempts = riders.flatMap((rider) => Array.from({ length: 4 }, (_, i) => ({ rider, place: `${rider.id}-${i}` })));
    const replies = await Promise.all(
      attempts.map(({ rider, place }) => call(t.app, 'POST', '/rides/book', { token: rider.token, body: { pickupLocation: place, ...TRIP } })),
    );
    for (const rider of riders) {
      const mine = replies.filter((_, i) => attempts[i].rider === rider);
      assert.deepEqual(mine.map((r) => r.status).sort(), [200, 200, 200, 409], `rider ${rider.id}`);
      for (const reply of mine.filter((r) => r.status === 200)) {
        assert.equal(reply.body.riderId, rider.id);
        assert.ok(reply.body.pickupLocation.startsWith(`${rider.id}-`), 'the ride booked is the one this rider asked for');
      }
      const notices = await call(t.app, 'GET', '/notifications/history', { token: rider.token });
      const told = notices.body.notifications.filter((n: { eventType: string }) => n.eventType === 'RIDE_REQUESTED').map((n: { rideId: number }) => n.rideId);
      assert.deepEqual(told.sort(), mine.filter((r) => r.status === 200).map((r) => r.body.id).sort(), 'one notice per booked ride, to its rider');
    }
  });

  test('plus codes come from the coordinates; whatever the client sends for them is ignored', async () => {
    const rider = await signUp(t);
    const booked = await bookRide(t, rider, { pickupPlusCode: '<script>alert(1)</script>', dropPlusCode: 'nonsense' });
    assert.match(booked.pickupPlusCode, /^[23456789CFGHJMPQRVWX]{8}\+[23456789CFGHJMPQRVWX]{2}$/);
    assert.match(booked.dropPlusCode, /^[23456789CFGHJMPQRVWX]{8}\+[23456789CFGHJMPQRVWX]{2}$/);
    const requested = await call(t.app, 'GET', '/rides/requested?limit=200');
    assert.ok(!JSON.stringify(requested.body).includes('<script>'));
  });
});
