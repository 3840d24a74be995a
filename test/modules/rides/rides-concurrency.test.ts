import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { call, createTestApp, type Reply, type TestApp } from '../../helpers/app.ts';
import { signUp } from '../../helpers/factories.ts';
import {
  accept,
  acceptedRide,
  assertError,
  assertOk,
  bookRide,
  completedRide,
  driverWithVehicle,
  eventsAbout,
  pickedRide,
  rideStatus,
  riderFee,
  setStatus,
  signUpMany,
  tripNorth,
} from '../../helpers/rides.ts';

const statuses = (replies: Reply[]) => replies.map((r) => r.status);
const count = (replies: Reply[], status: number) => replies.filter((r) => r.status === status).length;

describe('concurrent ride changes', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp();
  });
  after(() => t.close());

  test('when ten drivers accept the same ride at once exactly one wins, round after round', async () => {
    const rider = await signUp(t);
    const drivers = await signUpMany(t, 10, 'DRIVER');
    for (let round = 0; round < 5; round++) {
      const booked = await bookRide(t, rider);
      const replies = await Promise.all(drivers.map((driver) => accept(t, driver, booked.id)));
      assert.equal(count(replies, 200), 1, `round ${round}: one winner, got ${statuses(replies).join(',')}`);
      assert.equal(count(replies, 409), 9, `round ${round}: nine conflicts`);
      for (const reply of replies) if (reply.status === 409) assertError(reply, 409, 'RIDE_NOT_REQUESTED');
      const winner = drivers[replies.findIndex((r) => r.status === 200)];
      const won = replies.find((r) => r.status === 200)!.body;
      assert.equal(won.driverId, winner.id);
      assert.equal(won.startOtp, booked.startOtp);
      const view = await rideStatus(t, booked.id);
      assert.equal(view.status, 'ACCEPTED');
      assert.equal(view.driverId, winner.id, 'the stored driver is the winner');
      assert.equal(view.acceptedAt, won.acceptedAt);
      assert.deepEqual(await eventsAbout(t, rider, booked.id), ['RIDE_REQUESTED', 'RIDE_ACCEPTED'], 'one acceptance notice');
      // Only the winner has the ride in its history.
      for (const driver of drivers) {
        const history = (await call(t.app, 'GET', '/rides/history', { token: driver.token })).body;
        assert.equal(history.some((r: { id: number }) => r.id === booked.id), driver.id === winner.id);
      }
      // The winner gives the ride up so every driver is free for the next round.
      assertOk(await call(t.app, 'POST', `/rides/cancel/${booked.id}`, { token: winner.token }));
    }
  });

  test('a driver racing to accept five rides at once gets exactly one of them', async () => {
    const riders = await signUpMany(t, 5, 'USER');
    const [driver] = await signUpMany(t, 1, 'DRIVER');
    for (let round = 0; round < 3; round++) {
      const rides = await Promise.all(riders.map((rider) => bookRide(t, rider)));
      const replies = await Promise.all(rides.map((ride) => accept(t, driver, ride.id)));
      assert.equal(count(replies, 200), 1, `round ${round}: one ride won, got ${statuses(replies).join(',')}`);
      for (const reply of replies) if (reply.status !== 200) assertError(reply, 409, 'DRIVER_BUSY');
      const wonIndex = replies.findIndex((r) => r.status === 200);
      for (const [i, ride] of rides.entries()) {
        const view = await rideStatus(t, ride.id);
        assert.equal(view.status, i === wonIndex ? 'ACCEPTED' : 'REQUESTED');
        assert.equal(view.driverId, i === wonIndex ? driver.id : null);
        assert.deepEqual(
          await eventsAbout(t, riders[i], ride.id),
          i === wonIndex ? ['RIDE_REQUESTED', 'RIDE_ACCEPTED'] : ['RIDE_REQUESTED'],
          'a refused accept notifies nobody',
        );
      }
      const history = (await call(t.app, 'GET', '/rides/history', { token: driver.token })).body;
      assert.equal(history.filter((r: { status: string }) => r.status === 'ACCEPTED').length, 1);
      assertOk(await call(t.app, 'POST', `/rides/cancel/${rides[wonIndex].id}`, { token: driver.token }));
      for (const [i, ride] of rides.entries()) if (i !== wonIndex) assertOk(await call(t.app, 'POST', `/rides/cancel/${ride.id}`, { token: riders[i].token }));
    }
  });

  test('a rider cancelling while a driver accepts ends in one consistent state', async () => {
    const rider = await signUp(t);
    const driver = await driverWithVehicle(t, 'suv');
    const outcomes = new Set<string>();
    for (let round = 0; round < 8; round++) {
      const booked = await bookRide(t, rider, { rideType: 'suv', ...tripNorth(12) });
      const [cancelled, accepted] = await Promise.all([
        call(t.app, 'POST', `/rides/cancel/${booked.id}`, { token: rider.token, body: { reason: 'race' } }),
        accept(t, driver, booked.id),
      ]);
      assertOk(cancelled, 'the rider may always cancel a ride that is not finished');
      const view = await rideStatus(t, booked.id);
      assert.equal(view.status, 'CANCELLED');
      const stored = (await call(t.app, 'GET', '/rides/history', { token: rider.token })).body.find((r: { id: number }) => r.id === booked.id);
      assert.equal(stored.cancelledBy, 'rider');
      assert.equal(stored.cancellationReason, 'race');
      if (accepted.status === 200) {
        outcomes.add('accepted first');
        assert.equal(view.driverId, driver.id);
        assert.equal(stored.cancellationFee, riderFee('ACCEPTED', booked.fare), 'cancelled after acceptance: the ACCEPTED fee');
        assert.equal(cancelled.body.cancellationFee, stored.cancellationFee);
        assert.deepEqual(await eventsAbout(t, driver, booked.id), ['RIDE_CANCELLED'], 'the driver hears of the cancellation');
        assert.deepEqual(await eventsAbout(t, rider, booked.id), ['RIDE_REQUESTED', 'RIDE_ACCEPTED']);
      } else {
        outcomes.add('cancelled first');
        assertError(accepted, 409, 'RIDE_NOT_REQUESTED');
        assert.equal(view.driverId, null);
        assert.equal(stored.cancellationFee, null, 'cancelled while REQUESTED: no fee');
        assert.deepEqual(await eventsAbout(t, driver, booked.id), []);
        assert.deepEqual(await eventsAbout(t, rider, booked.id), ['RIDE_REQUESTED']);
      }
      // Either way the driver is free again.
      const next = await bookRide(t, rider);
      assertOk(await accept(t, driver, next.id), 'the driver is not left busy');
      assertOk(await call(t.app, 'POST', `/rides/cancel/${next.id}`, { token: driver.token }));
    }
    assert.ok(outcomes.size >= 1);
  });

  test('when rider and driver cancel at once exactly one cancellation counts', async () => {
    const rider = await signUp(t);
    const driver = await driverWithVehicle(t, 'suv');
    for (let round = 0; round < 4; round++) {
      const { booked } = await pickedRide(t, rider, driver, { rideType: 'suv', ...tripNorth(40) });
      const [byRider, byDriver] = await Promise.all([
        call(t.app, 'POST', `/rides/cancel/${booked.id}`, { token: rider.token, body: { reason: 'rider' } }),
        call(t.app, 'POST', `/rides/cancel/${booked.id}`, { token: driver.token, body: { reason: 'driver' } }),
      ]);
      assert.deepEqual([byRider.status, byDriver.status].sort(), [200, 409], `one wins, got ${byRider.status},${byDriver.status}`);
      const winner = byRider.status === 200 ? 'rider' : 'driver';
      const stored = (await call(t.app, 'GET', '/rides/history', { token: rider.token })).body.find((r: { id: number }) => r.id === booked.id);
      assert.equal(stored.cancelledBy, winner);
      assert.equal(stored.cancellationReason, winner);
      assert.equal(stored.cancellationFee, winner === 'rider' ? 180 : null);
    }
  });

  test('a pickup sent twice at once moves the ride once and notifies once', async () => {
    const rider = await signUp(t);
    const driver = await signUp(t, { role: 'DRIVER' });
    const { booked } = await acceptedRide(t, rider, driver);
    const replies = await Promise.all([1, 2, 3].map(() => setStatus(t, driver, booked.id, { status: 'PICKED', otp: booked.startOtp })));
    assert.equal(count(replies, 200), 1, statuses(replies).join(','));
    assert.equal(count(replies, 409), 2);
    assert.deepEqual(await eventsAbout(t, driver, booked.id), ['RIDE_STARTED']);
    assert.deepEqual(await eventsAbout(t, rider, booked.id), ['RIDE_REQUESTED', 'RIDE_ACCEPTED', 'RIDE_STARTED']);
    const done = await Promise.all([1, 2, 3].map(() => setStatus(t, driver, booked.id, { status: 'COMPLETED', otp: booked.endOtp })));
    assert.equal(count(done, 200), 1, statuses(done).join(','));
    assert.deepEqual(await eventsAbout(t, driver, booked.id), ['RIDE_STARTED', 'RIDE_COMPLETED']);
  });

  test('feedback sent twice at once is stored once', async () => {
    const rider = await signUp(t);
    const driver = await signUp(t, { role: 'DRIVER' });
    const { ride } = await completedRide(t, rider, driver);
    const replies = await Promise.all([2, 4].map((rating) => call(t.app, 'POST', `/rides/feedback/${ride.id}`, { token: rider.token, body: { rating } })));
    assert.deepEqual(statuses(replies).sort(), [200, 409]);
    const winner = replies.find((r) => r.status === 200)!.body.riderRating;
    const stored = (await call(t.app, 'GET', '/rides/history', { token: rider.token })).body.find((r: { id: number }) => r.id === ride.id);
    assert.equal(stored.riderRating, winner);
  });
});
