import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startOfLocalDay } from '../../../src/platform/clock.ts';
import { call } from '../../helpers/app.ts';
import { eventually, driverAt, kmNorth, report } from '../../helpers/dispatch.ts';
import { signUp } from '../../helpers/factories.ts';
import { checkoutSignature, FakeRazorpay, KEY_ID, KEY_SECRET, paymentId, WEBHOOK_SECRET } from '../../helpers/fake-razorpay.ts';
import { accept, assertOk, bookRide, setStatus, signUpMany } from '../../helpers/rides.ts';
import { operatorApp, type OperatorApp } from './operator.ts';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

describe('GET /admin/overview', () => {
  let provider: FakeRazorpay;
  let op: OperatorApp;
  let yesterdays: { id: number };
  before(async () => {
    provider = await new FakeRazorpay().start();
    op = await operatorApp(
      {
        razorpay: { keyId: KEY_ID, keySecret: KEY_SECRET, apiUrl: provider.url, webhookSecret: WEBHOOK_SECRET },
        // No offers: who is available stays as the test leaves it.
        dispatch: { mode: 'broadcast', batchMs: 200, offerTtlMs: 15_000, maxMs: 120_000 },
      },
      async (t) => {
        // A request from yesterday that nobody took: open now, but not one of today's rides.
        yesterdays = await bookRide(t, await signUp(t));
        // Tomorrow at noon in the service's time zone: the whole test happens on one local day.
        const now = t.clock.now();
        t.clock.advance(startOfLocalDay(now, t.config.serviceTimezone) + 36 * HOUR - now);
      },
    );
  });
  after(async () => {
    await op.t.close();
    await provider.close();
  });

  test("the figures are exactly today's rides, waits, fares, payments and drivers", async () => {
    const { t, admin } = op;
    const [openRider, doneRider, goingRider, quitter, planner] = await signUpMany(t, 5, 'USER');
    const [fast, slow] = await signUpMany(t, 2, 'DRIVER');

    const open = await bookRide(t, openRider);
    // Booked today for tomorrow: a ride of today's, waiting for its time, not an open request.
    const ahead = await bookRide(t, planner, { scheduledAt: new Date(t.clock.now() + 24 * HOUR).toISOString() });
    // Accepted 30 s after booking, picked up 4 minutes later, completed.
    const done = await bookRide(t, doneRider);
    t.clock.advance(30_000);
    assertOk(await accept(t, fast, done.id));
    t.clock.advance(4 * MINUTE);
    assertOk(await setStatus(t, fast, done.id, { status: 'PICKED', otp: done.startOtp }));
    t.clock.advance(10 * MINUTE);
    assertOk(await setStatus(t, fast, done.id, { status: 'COMPLETED', otp: done.endOtp }));
    // Accepted 90 s after booking, still on the way.
    const going = await bookRide(t, goingRider);
    t.clock.advance(90_000);
    assertOk(await accept(t, slow, going.id));
    // Cancelled by its rider before any driver came.
    const dropped = await bookRide(t, quitter);
    assertOk(await call(t.app, 'POST', `/rides/cancel/${dropped.id}`, { token: quitter.token, body: { reason: 'changed plans' } }));
    // One online payment of ₹150.
    const order = await call(t.app, 'POST', '/payments/order', { token: doneRider.token, body: { amountInInr: 150 } });
    assertOk(order);
    const pay = paymentId();
    assertOk(await call(t.app, 'POST', '/payments/verify', { body: { orderId: order.body.orderId, paymentId: pay, signature: checkoutSignature(order.body.orderId, pay) } }));
    // Three drivers online: the two with rides, and one with a vehicle and nothing to do.
    await report(t, fast, kmNorth(1));
    await report(t, slow, kmNorth(2));
    await driverAt(t, kmNorth(3));

    // Positions reach the database in batches once a second.
    const overview = await eventually(async () => {
      const reply = await call(t.app, 'GET', '/admin/overview', { token: admin.token });
      assertOk(reply);
      return reply.body.drivers.online === 3 ? reply.body : undefined;
    }, 'three drivers online');

    const now = t.clock.now();
    assert.deepEqual(overview, {
      generatedAt: new Date(now).toISOString(),
      timeZone: 'Asia/Kolkata',
      todayStartedAt: new Date(startOfLocalDay(now, 'Asia/Kolkata')).toISOString(),
      ridesToday: { REQUESTED: 2, ACCEPTED: 1, PICKED: 0, COMPLETED: 1, CANCELLED: 1 },
      openRequests: 2,
      bookedAhead: { waiting: 1, taken: 0 },
      cancellationRate: 0.2,
      completedFaresInr: done.fare,
      payments: { received: 1, amountInInr: 150 },
      drivers: { online: 3, available: 1, availableByVehicle: { bike: 0, auto: 0, mini: 1, sedan: 0, suv: 0 }, busy: 1 },
      simulationSpeed: 1,
      incidents: { open: 0, acknowledged: 0, acknowledgedToday: 0, meanAcknowledgeSeconds: null },
      lastHour: { acceptedRides: 2, meanAcceptDelaySeconds: 60, pickedUpRides: 1, meanPickupMinutes: 4 },
    });
    assert.ok(yesterdays.id < open.id);
    // Cancelled, so it does not enter dispatch when the next test moves the clock past its time.
    assertOk(await call(t.app, 'POST', `/rides/cancel/${ahead.id}`, { token: planner.token, body: { reason: 'changed plans' } }));
  });

  test('a day without rides has no cancellation rate and no waits', async () => {
    const { t, admin } = op;
    t.clock.advance(2 * 24 * HOUR);
    const login = await call(t.app, 'POST', '/auth/login', { body: { email: admin.email, password: admin.password } });
    const reply = await call(t.app, 'GET', '/admin/overview', { token: login.body.accessToken });
    assertOk(reply);
    assert.deepEqual(reply.body.ridesToday, { REQUESTED: 0, ACCEPTED: 0, PICKED: 0, COMPLETED: 0, CANCELLED: 0 });
    assert.equal(reply.body.cancellationRate, null);
    assert.equal(reply.body.completedFaresInr, 0);
    assert.deepEqual(reply.body.payments, { received: 0, amountInInr: 0 });
    assert.deepEqual(reply.body.lastHour, { acceptedRides: 0, meanAcceptDelaySeconds: null, pickedUpRides: 0, meanPickupMinutes: null });
    // Still waiting, whenever they were booked.
    assert.equal(reply.body.openRequests, 2);
    assert.equal(reply.body.drivers.busy, 1);
  });
});

describe('GET /admin/overview of a simulated city (SIMULATION_SPEED)', () => {
  let op: OperatorApp;
  before(async () => {
    op = await operatorApp({ simulationSpeed: 20, dispatch: { mode: 'broadcast', batchMs: 200, offerTtlMs: 15_000, maxMs: 120_000 } });
  });
  after(() => op.t.close());

  test("the last hour and its waits are the city's: 3 s of the service's clock are a minute of a city at 20×", async () => {
    const { t, admin } = op;
    const [early, late] = await signUpMany(t, 2, 'USER');
    const [driver, other] = await signUpMany(t, 2, 'DRIVER');
    // Accepted five wall-clock minutes ago: over an hour ago in the city's time, so not counted.
    const old = await bookRide(t, early);
    assertOk(await accept(t, other, old.id));
    t.clock.advance(5 * MINUTE);
    // Booked, then accepted 3 s later (a minute of the city's), picked up 12 s after that (4 of its minutes).
    const ride = await bookRide(t, late);
    t.clock.advance(3_000);
    assertOk(await accept(t, driver, ride.id));
    t.clock.advance(12_000);
    assertOk(await setStatus(t, driver, ride.id, { status: 'PICKED', otp: ride.startOtp }));
    const reply = await call(t.app, 'GET', '/admin/overview', { token: admin.token });
    assertOk(reply);
    assert.equal(reply.body.simulationSpeed, 20);
    assert.deepEqual(reply.body.lastHour, { acceptedRides: 1, meanAcceptDelaySeconds: 60, pickedUpRides: 1, meanPickupMinutes: 4 });
  });
});
