import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, test } from 'node:test';
import { localHour, surgeFor } from '../../../src/modules/insights/insights.model.ts';
import { FIRST_RULES } from '../../../src/modules/pricing/pricing.model.ts';

const FARES = FIRST_RULES.fares;
import type { RideType } from '../../../src/platform/vocabulary.ts';
import { call, createTestApp, type TestApp } from '../../helpers/app.ts';
import { signUp, type TestUser } from '../../helpers/factories.ts';

// GET /rides/insights/predictive over a real database (SQLite, or PostgreSQL with DATABASE_URL),
// and the surge it feeds into /rides/estimate and /rides/book.

/** Fare quotes read a demand signal up to a second old; moving past it makes the next quote fresh. */
const PAST_CACHE = 31_000;
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** A trip in Bengaluru, MG Road to Koramangala. */
const TRIP = { pickupLat: 12.9716, pickupLon: 77.5946, dropLat: 12.9352, dropLon: 77.6245 } as const;

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{3})?Z$/;
const WINDOW = /^([01]\d|2[0-3]):00-([01]\d|2[0-3]):00$/;

async function insights(t: TestApp, user: TestUser) {
  const reply = await call(t.app, 'GET', '/rides/insights/predictive', { token: user.token });
  assert.equal(reply.status, 200, JSON.stringify(reply.body));
  return reply.body;
}

/** Insights computed after the clock moved on (past any memoised signal). */
async function freshInsights(t: TestApp, user: TestUser) {
  t.clock.advance(PAST_CACHE);
  const body = await insights(t, user);
  assert.equal(body.generatedAt, new Date(t.clock.now()).toISOString(), 'computed at this moment, not cached');
  return body;
}

async function book(t: TestApp, rider: TestUser, body: Record<string, unknown> = {}) {
  const reply = await call(t.app, 'POST', '/rides/book', { token: rider.token, body: { pickupLocation: 'MG Road', dropLocation: 'Koramangala', ...TRIP, ...body } });
  assert.equal(reply.status, 200, JSON.stringify(reply.body));
  assert.equal(reply.body.status, 'REQUESTED');
  return reply.body;
}

async function setStatus(t: TestApp, user: TestUser, rideId: number, body: Record<string, unknown>) {
  const reply = await call(t.app, 'POST', `/rides/status/${rideId}`, { token: user.token, body });
  assert.equal(reply.status, 200, `${String(body.status)}: ${JSON.stringify(reply.body)}`);
  return reply.body;
}

const accept = (t: TestApp, driver: TestUser, rideId: number) => setStatus(t, driver, rideId, { status: 'ACCEPTED', driverId: String(driver.id) });

async function cancel(t: TestApp, user: TestUser, rideId: number) {
  const reply = await call(t.app, 'POST', `/rides/cancel/${rideId}`, { token: user.token, body: { reason: 'plans changed' } });
  assert.equal(reply.status, 200, JSON.stringify(reply.body));
  assert.equal(reply.body.status, 'CANCELLED');
}

async function reportPosition(t: TestApp, driver: TestUser, point = { lat: TRIP.pickupLat, lon: TRIP.pickupLon }) {
  const reply = await call(t.app, 'PUT', '/drivers/me/location', { token: driver.token, body: point });
  assert.equal(reply.status, 200, JSON.stringify(reply.body));
}

/** Logs in again: moving the clock by hours expires access tokens. */
async function relogin(t: TestApp, ...users: TestUser[]) {
  for (const user of users) {
    const reply = await call(t.app, 'POST', '/auth/login', { body: { email: user.email, password: user.password, role: user.role } });
    assert.equal(reply.status, 200, JSON.stringify(reply.body));
    user.token = reply.body.accessToken;
  }
}

/**
 * Driver positions reach the database within about a second (batched writes). Re-reads fresh
 * insights until activeDriversEstimate has the expected value, for at most 3 seconds.
 */
async function waitForActiveDrivers(t: TestApp, user: TestUser, expected: number, { settle = false } = {}) {
  const deadline = Date.now() + 3_000;
  let body = await freshInsights(t, user);
  while (body.driverSupplyPlan.activeDriversEstimate !== expected && Date.now() < deadline) {
    await sleep(100);
    body = await freshInsights(t, user);
  }
  assert.equal(body.driverSupplyPlan.activeDriversEstimate, expected, JSON.stringify(body.driverSupplyPlan));
  if (settle) {
    // Past another batch of presence writes, the number must not move (no driver counted twice).
    await sleep(1_200);
    body = await freshInsights(t, user);
    assert.equal(body.driverSupplyPlan.activeDriversEstimate, expected, `after the writes settled: ${JSON.stringify(body.driverSupplyPlan)}`);
  }
  return body;
}

const signUpMany = (t: TestApp, count: number, role: TestUser['role']) => Promise.all(Array.from({ length: count }, () => signUp(t, { role })));

/** An estimate by distance alone: no pickup point, so the city-wide surge. */
const cityEstimate = async (t: TestApp, rideType: RideType) => {
  const reply = await call(t.app, 'GET', `/rides/estimate?distanceKm=12&rideType=${rideType}`);
  assert.equal(reply.status, 200, JSON.stringify(reply.body));
  return reply.body;
};


/**
 * The documented fare for the quoted distance and minutes: round(max(minimum, base + perKm × km +
 * perMinute × minutes) × surge), in exact arithmetic (paise; surge in twentieths, its 0.05 steps).
 */
function expectedFare(rideType: RideType, distanceKm: number, minutes: number, surge: number): number {
  const rate = FARES[rideType];
  const subtotalPaise = Math.max(rate.minimum * 100, Math.round(rate.base * 100 + rate.perKm * 100 * distanceKm + rate.perMinute * 100 * minutes));
  const twentieths = Math.round(surge * 20);
  assert.ok(Math.abs(twentieths - surge * 20) < 1e-9, `surge ${surge} is in 0.05 steps`);
  return Math.floor((subtotalPaise * twentieths * 2 + 2000) / 4000); // round half up of subtotal × surge / 100
}

/** Every field of spec 2.8 with its type and allowed values. */
function assertShape(body: any) {
  assert.deepEqual(Object.keys(body).sort(), ['confidence', 'demandForecast', 'driverSupplyPlan', 'etaGuidance', 'generatedAt', 'model', 'sampleSize', 'surgeRecommendation']);
  assert.equal(body.model, 'demand-heuristics-v1');
  assert.match(body.generatedAt, ISO);
  assert.ok(['LOW', 'MEDIUM', 'HIGH'].includes(body.confidence), body.confidence);
  assert.ok(Number.isInteger(body.sampleSize) && body.sampleSize >= 0);

  const demand = body.demandForecast;
  assert.deepEqual(Object.keys(demand).sort(), ['currentOpenRequests', 'nextHourDemand', 'nextTwoHoursDemand', 'peakWindow', 'trend']);
  assert.ok(['RISING', 'STABLE', 'SOFT'].includes(demand.trend), demand.trend);
  for (const key of ['currentOpenRequests', 'nextHourDemand', 'nextTwoHoursDemand']) assert.ok(Number.isInteger(demand[key]) && demand[key] >= 0, key);
  assert.ok(demand.nextTwoHoursDemand >= demand.nextHourDemand);
  assert.ok(demand.peakWindow === null || WINDOW.test(demand.peakWindow), String(demand.peakWindow));

  const surge = body.surgeRecommendation;
  assert.deepEqual(Object.keys(surge).sort(), ['intensity', 'reason', 'suggestedMultiplier']);
  assert.equal(typeof surge.suggestedMultiplier, 'number');
  assert.ok(surge.suggestedMultiplier >= 1 && surge.suggestedMultiplier <= 2, String(surge.suggestedMultiplier));
  assert.ok(['NORMAL', 'MODERATE', 'HIGH', 'SEVERE'].includes(surge.intensity), surge.intensity);
  assert.equal(typeof surge.reason, 'string');
  assert.ok(surge.reason.length > 0);

  const eta = body.etaGuidance;
  assert.deepEqual(Object.keys(eta).sort(), ['baselinePickupMinutes', 'deltaMinutes', 'predictedPickupMinutes', 'reason']);
  for (const key of ['baselinePickupMinutes', 'predictedPickupMinutes', 'deltaMinutes']) assert.ok(Number.isInteger(eta[key]), key);
  assert.equal(eta.deltaMinutes, eta.predictedPickupMinutes - eta.baselinePickupMinutes);
  assert.equal(typeof eta.reason, 'string');
  assert.ok(eta.reason.length > 0);

  const supply = body.driverSupplyPlan;
  assert.deepEqual(Object.keys(supply).sort(), ['action', 'activeDriversEstimate', 'additionalDriversNeeded', 'busyDrivers', 'recommendedOnlineDrivers']);
  for (const key of ['activeDriversEstimate', 'busyDrivers', 'recommendedOnlineDrivers', 'additionalDriversNeeded']) {
    assert.ok(Number.isInteger(supply[key]) && supply[key] >= 0, key);
  }
  assert.equal(supply.additionalDriversNeeded, Math.max(0, supply.recommendedOnlineDrivers - supply.activeDriversEstimate));
  assert.equal(typeof supply.action, 'string');
  assert.ok(supply.action.length > 0);
}

/** The multiplier the documented pressure formula gives for the reported numbers. */
/** The documented multiplier for the answer's own numbers; demand is riders (the reason names them when fewer than requests). */
function multiplierFor(body: any): number {
  const { currentOpenRequests, nextHourDemand: next } = body.demandForecast;
  const open = Number(/ from (\d+) riders?/.exec(body.surgeRecommendation.reason)?.[1] ?? currentOpenRequests);
  const pressure = Math.round(((open + 0.75 * next) / Math.max(1, body.driverSupplyPlan.activeDriversEstimate)) * 100) / 100;
  assert.match(body.surgeRecommendation.reason, new RegExp(`pressure ${pressure.toFixed(2)}\\b`), 'the reason quotes the pressure');
  return surgeFor(pressure).multiplier;
}

describe('insights: access and shape', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp();
  });
  after(() => t.close());

  test('401 without a token or with a bad one', async () => {
    const none = await call(t.app, 'GET', '/rides/insights/predictive');
    assert.equal(none.status, 401);
    const bad = await call(t.app, 'GET', '/rides/insights/predictive', { token: 'not-a-jwt' });
    assert.equal(bad.status, 401);
  });

  test('any authenticated role gets every field of 2.8; an empty database has no history and no surge', async () => {
    const [user, driver, rider] = await Promise.all([signUp(t, { role: 'USER' }), signUp(t, { role: 'DRIVER' }), signUp(t, { role: 'RIDER' })]);
    for (const caller of [user, driver, rider]) {
      const body = await insights(t, caller);
      assertShape(body);
    }
    const body = await freshInsights(t, driver);
    assertShape(body);
    assert.equal(body.sampleSize, 0);
    assert.equal(body.confidence, 'LOW');
    assert.deepEqual(body.demandForecast, { trend: 'STABLE', currentOpenRequests: 0, nextHourDemand: 0, nextTwoHoursDemand: 0, peakWindow: null });
    assert.equal(body.surgeRecommendation.suggestedMultiplier, 1);
    assert.equal(body.surgeRecommendation.intensity, 'NORMAL');
    assert.deepEqual(
      { ...body.etaGuidance, reason: '' },
      { baselinePickupMinutes: 6, predictedPickupMinutes: 6, deltaMinutes: 0, reason: '' },
    );
    assert.deepEqual(
      { ...body.driverSupplyPlan, action: '' },
      { activeDriversEstimate: 0, busyDrivers: 0, recommendedOnlineDrivers: 0, additionalDriversNeeded: 0, action: '' },
    );
  });
});

describe('insights: counts match the rides', () => {
  let t: TestApp;
  let riders: TestUser[];
  let drivers: TestUser[];
  const createdAt: number[] = [];

  before(async () => {
    t = await createTestApp();
    [riders, drivers] = await Promise.all([signUpMany(t, 2, 'USER'), signUpMany(t, 4, 'DRIVER')]);
  });
  after(() => t.close());

  test('peakWindow is null before any ride', async () => {
    const body = await freshInsights(t, riders[0]);
    assert.equal(body.demandForecast.peakWindow, null);
    assert.equal(body.sampleSize, 0);
  });

  test('currentOpenRequests = REQUESTED rides, busyDrivers = drivers on ACCEPTED or PICKED rides, sampleSize = rides created', async () => {
    const [d1, d2, d3, d4] = drivers;
    const rides = [];
    for (let i = 0; i < 8; i++) {
      rides.push(await book(t, riders[i % 2]));
      createdAt.push(t.clock.now());
    }
    let body = await freshInsights(t, riders[0]);
    assert.equal(body.demandForecast.currentOpenRequests, 8);
    assert.equal(body.driverSupplyPlan.busyDrivers, 0);
    assert.equal(body.sampleSize, 8);

    await accept(t, d1, rides[0].id); // ACCEPTED: busy
    await accept(t, d2, rides[1].id);
    await setStatus(t, d2, rides[1].id, { status: 'PICKED', otp: rides[1].startOtp }); // PICKED: busy
    await accept(t, d3, rides[2].id);
    await setStatus(t, d3, rides[2].id, { status: 'PICKED', otp: rides[2].startOtp });
    await setStatus(t, d3, rides[2].id, { status: 'COMPLETED', otp: rides[2].endOtp }); // finished: not busy
    await cancel(t, riders[1], rides[3].id); // cancelled while REQUESTED
    await accept(t, d4, rides[4].id);
    await cancel(t, d4, rides[4].id); // cancelled by the driver after accepting: not busy

    // REQUESTED: rides 5, 6, 7.
    body = await freshInsights(t, riders[1]);
    assertShape(body);
    assert.equal(body.demandForecast.currentOpenRequests, 3);
    assert.equal(body.driverSupplyPlan.busyDrivers, 2);
    assert.equal(body.sampleSize, 8, 'every ride created in the window counts, whatever its status');
    assert.equal(body.confidence, 'LOW');
    // d1, d2 on a ride; d3 completed and d4 accepted within 6 hours: ride activity, no positions.
    assert.equal(body.driverSupplyPlan.activeDriversEstimate, 4);
    assert.equal(body.surgeRecommendation.suggestedMultiplier, multiplierFor(body));

    // The open requests list agrees.
    const requested = await call(t.app, 'GET', '/rides/requested?limit=100');
    assert.equal(requested.body.length, body.demandForecast.currentOpenRequests);
  });

  test('peakWindow is a two-hour HH:MM-HH:MM window around the hour the rides were created', async () => {
    const body = await freshInsights(t, riders[0]);
    const window = body.demandForecast.peakWindow as string;
    assert.match(window, WINDOW);
    const [start, end] = window.split('-').map((part) => Number(part.slice(0, 2)));
    assert.equal(end, (start + 2) % 24);
    for (const at of createdAt) {
      const hour = localHour(at, t.config.serviceTimezone);
      assert.ok(hour === start || hour === (start + 1) % 24, `ride at local hour ${hour} is inside ${window}`);
    }
  });

  test('every answer is of its moment: open requests, busy drivers and the history count each new ride at once', async () => {
    const first = await insights(t, riders[0]);
    await book(t, riders[0]);
    await book(t, riders[1]);
    // No time passes: nothing may be served from a cache.
    const next = await insights(t, drivers[0]);
    assert.equal(next.demandForecast.currentOpenRequests, first.demandForecast.currentOpenRequests + 2);
    assert.equal(next.sampleSize, first.sampleSize + 2);
    assert.equal(next.driverSupplyPlan.busyDrivers, first.driverSupplyPlan.busyDrivers);
  });

  test('rides older than 14 days leave sampleSize and the peak window; open ones stay open', async () => {
    const before = await freshInsights(t, riders[0]);
    assert.equal(before.sampleSize, 10);
    t.clock.advance(14 * DAY + HOUR);
    await relogin(t, riders[0]);
    const body = await freshInsights(t, riders[0]);
    assert.equal(body.sampleSize, 0);
    assert.equal(body.confidence, 'LOW');
    assert.equal(body.demandForecast.peakWindow, null);
    assert.equal(body.demandForecast.currentOpenRequests, before.demandForecast.currentOpenRequests);
    assert.equal(body.driverSupplyPlan.busyDrivers, 2);
    // d1 and d2 are still on their rides; d3 and d4 have been idle for two weeks.
    assert.equal(body.driverSupplyPlan.activeDriversEstimate, 2);
  });
});

describe('insights: active drivers', () => {
  let t: TestApp;
  let rider: TestUser;
  let drivers: TestUser[];

  before(async () => {
    t = await createTestApp();
    [rider, drivers] = await Promise.all([signUp(t, { role: 'USER' }), signUpMany(t, 4, 'DRIVER')]);
  });
  after(() => t.close());

  test('drivers with a position or ride activity in the last 6 hours, each counted once', async () => {
    const [positionOnly, both, rideOnly] = drivers; // the fourth driver does nothing
    await reportPosition(t, positionOnly);
    await reportPosition(t, both);
    const first = await book(t, rider);
    const second = await book(t, rider);
    await accept(t, both, first.id);
    await accept(t, rideOnly, second.id);

    const body = await waitForActiveDrivers(t, rider, 3, { settle: true });
    assert.equal(body.driverSupplyPlan.busyDrivers, 2);

    // Six hours and a minute later the positions are stale; the two drivers on rides still count.
    t.clock.advance(6 * HOUR + 60_000);
    await relogin(t, rider, ...drivers);
    const later = await freshInsights(t, rider);
    assert.equal(later.driverSupplyPlan.activeDriversEstimate, 2);

    // A new position brings the first driver back.
    await reportPosition(t, positionOnly);
    await waitForActiveDrivers(t, rider, 3);
  });
});

describe('insights: the 6-hour activity window', () => {
  let t: TestApp;
  let rider: TestUser;
  let driver: TestUser;

  before(async () => {
    t = await createTestApp();
    [rider, driver] = await Promise.all([signUp(t, { role: 'USER' }), signUp(t, { role: 'DRIVER' })]);
  });
  after(() => t.close());

  test('a position 6 h − 1 s old counts, one 6 h 30 s old does not', async () => {
    await reportPosition(t, driver);
    const reportedAt = t.clock.now();
    await waitForActiveDrivers(t, rider, 1);
    const elapsed = t.clock.now() - reportedAt;
    t.clock.advance(6 * HOUR - 1_000 - PAST_CACHE - elapsed);
    await relogin(t, rider);
    const inside = await freshInsights(t, rider);
    assert.equal(t.clock.now() - reportedAt, 6 * HOUR - 1_000);
    assert.equal(inside.driverSupplyPlan.activeDriversEstimate, 1);
    const outside = await freshInsights(t, rider);
    assert.equal(outside.driverSupplyPlan.activeDriversEstimate, 0);
  });

  test('a driver who just finished a ride that had waited two days for a driver is active', async () => {
    // Nothing expires an open request, so a ride can be accepted and completed long after it was booked.
    const ride = await book(t, rider);
    t.clock.advance(2 * DAY);
    await relogin(t, rider, driver);
    await accept(t, driver, ride.id);
    await setStatus(t, driver, ride.id, { status: 'PICKED', otp: ride.startOtp });
    await setStatus(t, driver, ride.id, { status: 'COMPLETED', otp: ride.endOtp });
    const body = await freshInsights(t, rider);
    assert.equal(body.driverSupplyPlan.busyDrivers, 0);
    assert.equal(body.sampleSize, 1);
    // Accepted and completed 31 seconds ago, no position reported: ride activity in the last 6 hours.
    assert.equal(body.driverSupplyPlan.activeDriversEstimate, 1, 'ride activity counts however old the ride is');
  });
});

describe('insights: surge in the estimate and the booked fare', () => {
  let t: TestApp;
  let riders: TestUser[];
  const rideType: RideType = 'sedan';

  before(async () => {
    t = await createTestApp();
    riders = await signUpMany(t, 5, 'USER');
  });
  after(() => t.close());

  /**
   * Quotes without a pickup point carry the city-wide surge (with one, the pickup zone's: see
   * test/modules/dispatch/zones.test.ts): an estimate by distance, and a booking without points,
   * charged the type's minimum times that surge.
   */
  async function quoteAndBook(rider: TestUser) {
    const quote = await cityEstimate(t, rideType);
    const ride = await book(t, rider, { rideType, pickupLat: null, pickupLon: null, dropLat: null, dropLon: null });
    assert.equal(ride.surgeMultiplier, quote.surgeMultiplier, 'booked surge equals the estimate');
    assert.equal(quote.fare, expectedFare(rideType, quote.distanceKm, quote.durationMinutes, quote.surgeMultiplier));
    assert.equal(ride.fare, expectedFare(rideType, 0, 0, ride.surgeMultiplier), 'no points: the minimum fare, surged');
    return { quote, ride };
  }

  test('no demand: multiplier 1 and the unsurged fare', async () => {
    const { quote, ride } = await quoteAndBook(riders[0]);
    assert.equal(quote.surgeMultiplier, 1);
    assert.equal(ride.surgeMultiplier, 1);
    const rate = FARES[rideType];
    const subtotal = Math.max(rate.minimum, rate.base + rate.perKm * quote.distanceKm + rate.perMinute * quote.durationMinutes);
    assert.equal(quote.fare, Math.round(subtotal));
    assert.ok(quote.fare > rate.minimum, 'the trip is long enough that surge is visible above the minimum');
  });

  test('open requests and no drivers raise the multiplier; estimate and booking rise together', async () => {
    const unsurged = await cityEstimate(t, rideType);
    assert.equal(unsurged.surgeMultiplier, 1, 'quotes use a signal up to a second old: still the price before the first booking');

    // One open request, no driver: next hour 1, pressure (1 + 0.75) / 1 = 1.75 → 1.6 (HIGH).
    const body = await freshInsights(t, riders[0]);
    assert.equal(body.demandForecast.currentOpenRequests, 1);
    assert.equal(body.demandForecast.nextHourDemand, 1);
    assert.equal(body.driverSupplyPlan.activeDriversEstimate, 0);
    assert.equal(body.surgeRecommendation.suggestedMultiplier, 1.6);
    assert.equal(body.surgeRecommendation.intensity, 'HIGH');
    assert.equal(multiplierFor(body), 1.6);

    const { quote, ride } = await quoteAndBook(riders[1]);
    assert.equal(quote.surgeMultiplier, 1.6);
    assert.equal(ride.surgeMultiplier, 1.6);
    assert.ok(quote.fare > unsurged.fare);
    assert.equal(quote.distanceKm, unsurged.distanceKm);
    assert.equal(quote.fare, expectedFare(rideType, unsurged.distanceKm, unsurged.durationMinutes, 1.6), 'round(unsurged subtotal × 1.6)');
    // The pickup wait in the quote follows the insights' ETA guidance.
    const predicted = body.etaGuidance.predictedPickupMinutes;
    assert.equal(predicted, 8, '4 + 2 × 1.75 = 7.5 → 8');
    assert.equal(quote.etaMinMinutes, Math.max(1, predicted - 2));
    assert.equal(quote.etaMaxMinutes, predicted + 3);
  });

  test('more open requests push the multiplier to the 2.0 cap', async () => {
    await book(t, riders[2], { rideType });
    // Three open requests of three riders, no driver: pressure (3 + 0.75 × 3) / 1 = 5.25 → 2.36, capped at 2.0.
    const body = await freshInsights(t, riders[0]);
    assert.equal(body.demandForecast.currentOpenRequests, 3);
    assert.equal(body.demandForecast.nextHourDemand, 3);
    assert.equal(body.surgeRecommendation.suggestedMultiplier, 2);
    assert.equal(body.surgeRecommendation.intensity, 'SEVERE');
    const { quote, ride } = await quoteAndBook(riders[3]);
    assert.equal(quote.surgeMultiplier, 2);
    assert.equal(ride.surgeMultiplier, 2);
  });

  test('drivers coming online bring the multiplier back down', async () => {
    // Four open requests of four riders. Nine drivers report positions: (4 + 0.75 × 4) / 9 = 0.78 → 1.0.
    const drivers = await signUpMany(t, 9, 'DRIVER');
    await Promise.all(drivers.map((driver) => reportPosition(t, driver)));
    const body = await waitForActiveDrivers(t, riders[0], 9);
    assert.equal(body.demandForecast.currentOpenRequests, 4);
    assert.equal(body.demandForecast.nextHourDemand, 4);
    assert.equal(body.surgeRecommendation.suggestedMultiplier, 1);
    assert.equal(body.surgeRecommendation.intensity, 'NORMAL');
    assert.equal(body.driverSupplyPlan.recommendedOnlineDrivers, 2);
    assert.equal(body.driverSupplyPlan.additionalDriversNeeded, 0);
    const { quote, ride } = await quoteAndBook(riders[4]);
    assert.equal(quote.surgeMultiplier, 1);
    assert.equal(ride.surgeMultiplier, 1);
  });
});

describe('insights: demand counts riders, not bookings', () => {
  // decisions.md "Rides": demand for surge counts distinct riders, so one account cannot move prices.
  test("one rider's many bookings weigh like one; as many riders push the surge up", async () => {
    const t = await createTestApp();
    try {
      const [hoarder, ...others] = await signUpMany(t, 5, 'USER');
      await book(t, hoarder);
      const one = await freshInsights(t, hoarder);
      for (let i = 0; i < 4; i++) await book(t, hoarder);
      const five = await freshInsights(t, hoarder);
      assert.equal(five.demandForecast.currentOpenRequests, 5, 'every request is listed');
      assert.equal(five.demandForecast.nextHourDemand, one.demandForecast.nextHourDemand);
      assert.equal(five.surgeRecommendation.suggestedMultiplier, one.surgeRecommendation.suggestedMultiplier);
      assert.equal((await cityEstimate(t, 'mini')).surgeMultiplier, one.surgeRecommendation.suggestedMultiplier, 'the quote did not move');

      for (const rider of others) await book(t, rider);
      const crowd = await freshInsights(t, hoarder);
      assert.ok(crowd.surgeRecommendation.suggestedMultiplier > one.surgeRecommendation.suggestedMultiplier, 'five riders do move it');
    } finally {
      await t.close();
    }
  });

  test('right after 20 bookings the open requests are exactly the REQUESTED rides', async () => {
    const t = await createTestApp();
    try {
      const riders = await signUpMany(t, 4, 'USER');
      for (let i = 0; i < 20; i++) await book(t, riders[i % 4]);
      const body = await insights(t, riders[0]);
      assert.equal(body.demandForecast.currentOpenRequests, 20);
      assert.equal(body.sampleSize, 20);
    } finally {
      await t.close();
    }
  });
});
