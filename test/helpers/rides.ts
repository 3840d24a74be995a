import assert from 'node:assert/strict';
import { routes } from '../../src/contract/routes.ts';
import type { StatusBody } from '../../src/contract/types.ts';
import { apiOf, asReply } from './api.ts';
import { call, type Reply, type TestApp } from './app.ts';
import { signUp, type TestUser } from './factories.ts';

/** Coordinates of a short trip in Bengaluru (about 5.6 km by road). */
export const TRIP = { pickupLat: 12.9716, pickupLon: 77.5946, dropLat: 12.9352, dropLon: 77.6245 } as const;

/** Kilometres per degree of latitude, close enough for picking test coordinates. */
const KM_PER_DEGREE = 111.2;

/** A trip due north of TRIP's pickup point, `km` kilometres in a straight line. */
export function tripNorth(km: number): { pickupLat: number; pickupLon: number; dropLat: number; dropLon: number } {
  return { pickupLat: TRIP.pickupLat, pickupLon: TRIP.pickupLon, dropLat: TRIP.pickupLat + km / KM_PER_DEGREE, dropLon: TRIP.pickupLon };
}

/** A point `metres` north of the given point. */
export const northOf = (point: { lat: number; lon: number }, metres: number) => ({ lat: point.lat + metres / 1000 / KM_PER_DEGREE, lon: point.lon });

export const pickupOf = (ride: { pickupLat: number; pickupLon: number }) => ({ lat: ride.pickupLat, lon: ride.pickupLon });

/** Asserts an error reply: status, the uniform error body and, when given, its code. */
export function assertError(reply: Reply, status: number, code?: string): void {
  assert.equal(reply.status, status, `expected ${status}, got ${reply.status}: ${JSON.stringify(reply.body)}`);
  assert.deepEqual(Object.keys(reply.body).sort(), ['code', 'error', 'message', 'statusCode']);
  assert.equal(reply.body.statusCode, status);
  assert.equal(typeof reply.body.error, 'string');
  assert.equal(typeof reply.body.message, 'string');
  if (code) assert.equal(reply.body.code, code, reply.body.message);
}

export function assertOk(reply: Reply, what = 'request'): void {
  assert.equal(reply.status, 200, `${what}: ${reply.status} ${JSON.stringify(reply.body)}`);
}

/** Books a ride for the rider (short trip by default) and returns the booking response. */
export async function bookRide(t: TestApp, rider: TestUser, body: Record<string, unknown> = {}) {
  const answer = await apiOf(t, rider).send(routes.rides.book, { body: { pickupLocation: 'MG Road', dropLocation: 'Koramangala', ...TRIP, ...body } });
  const reply = asReply(answer);
  assertOk(reply, 'book');
  return reply.body;
}

export async function setStatus(t: TestApp, user: TestUser, rideId: number, body: Record<string, unknown>): Promise<Reply> {
  return asReply(await apiOf(t, user).send(routes.rides.change, { params: { rideId }, body: body as StatusBody }));
}

export const accept = (t: TestApp, driver: TestUser, rideId: number) => setStatus(t, driver, rideId, { status: 'ACCEPTED', driverId: String(driver.id) });

/** A driver with a vehicle profile: they may accept rides their vehicle serves (a bike only bikes, an SUV suv, sedan and mini). */
export async function driverWithVehicle(t: TestApp, vehicleType: string): Promise<TestUser> {
  const driver = await signUp(t, { role: 'DRIVER' });
  const answer = await apiOf(t, driver).send(routes.drivers.saveProfile, { body: { vehicleType, vehicleNumber: `KA01VH${String(driver.id).padStart(4, '0')}` } as never });
  assertOk(asReply(answer), 'vehicle profile');
  return driver;
}

/** The public view of a ride. */
export async function rideStatus(t: TestApp, rideId: number) {
  const reply = asReply(await apiOf(t).send(routes.rides.status, { params: { rideId } }));
  assertOk(reply, 'status');
  return reply.body;
}

/** A booked ride the driver has accepted: the booking and the accept response. */
export async function acceptedRide(t: TestApp, rider: TestUser, driver: TestUser, body: Record<string, unknown> = {}) {
  const booked = await bookRide(t, rider, body);
  const reply = await accept(t, driver, booked.id);
  assertOk(reply, 'accept');
  return { booked, ride: reply.body };
}

/** A ride the driver has picked the rider up for. */
export async function pickedRide(t: TestApp, rider: TestUser, driver: TestUser, body: Record<string, unknown> = {}) {
  const { booked } = await acceptedRide(t, rider, driver, body);
  const reply = await setStatus(t, driver, booked.id, { status: 'PICKED', otp: booked.startOtp });
  assertOk(reply, 'pickup');
  return { booked, ride: reply.body };
}

/** A completed ride. */
export async function completedRide(t: TestApp, rider: TestUser, driver: TestUser, body: Record<string, unknown> = {}) {
  const { booked } = await pickedRide(t, rider, driver, body);
  const reply = await setStatus(t, driver, booked.id, { status: 'COMPLETED', otp: booked.endOtp });
  assertOk(reply, 'complete');
  return { booked, ride: reply.body };
}

export interface NotificationItem {
  id: number;
  userId: number;
  rideId: number | null;
  eventType: string;
  title: string;
  message: string;
  channel: string;
  status: string;
  deliveredAt: string | null;
}

/** The user's notifications about one ride, oldest first. */
export async function notificationsAbout(t: TestApp, user: TestUser, rideId: number): Promise<NotificationItem[]> {
  const reply = asReply(await apiOf(t, user).send(routes.notifications.history, { query: { limit: 200 } }));
  assertOk(reply, 'notifications');
  return (reply.body.notifications as NotificationItem[]).filter((n) => n.rideId === rideId).reverse();
}

export async function eventsAbout(t: TestApp, user: TestUser, rideId: number): Promise<string[]> {
  return (await notificationsAbout(t, user, rideId)).map((n) => n.eventType);
}

/** Every item of a paged ride list, following x-next-cursor until it is absent. */
export async function allPages(t: TestApp, path: string, limit: number, token?: string): Promise<{ ids: number[]; pages: number }> {
  const ids: number[] = [];
  let cursor: string | undefined;
  let pages = 0;
  do {
    const separator = path.includes('?') ? '&' : '?';
    const reply = await call(t.app, 'GET', `${path}${separator}limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`, { token });
    assertOk(reply, path);
    assert.ok(reply.body.length <= limit, `a page holds at most ${limit}`);
    ids.push(...reply.body.map((r: { id: number }) => r.id));
    const next = reply.headers['x-next-cursor'];
    cursor = typeof next === 'string' ? next : undefined;
    if (cursor) assert.equal(reply.body.length, limit, 'only full pages have a next cursor');
    pages += 1;
    assert.ok(pages < 1000, 'paging ends');
  } while (cursor);
  return { ids, pages };
}

/** The rider's cancellation fee for a ride in `status` with this fare (decisions.md, pricing.ts). */
export function riderFee(status: 'ACCEPTED' | 'PICKED', fare: number): number {
  const rule = status === 'ACCEPTED' ? { share: 0.2, min: 20, max: 60 } : { share: 0.4, min: 50, max: 180 };
  return Math.min(rule.max, Math.max(rule.min, Math.round(fare * rule.share)));
}

/** Several accounts of one role, signed up in parallel. */
export function signUpMany(t: TestApp, count: number, role: TestUser['role']): Promise<TestUser[]> {
  return Promise.all(Array.from({ length: count }, () => signUp(t, { role })));
}

/**
 * A trip of the ride type whose fare, as quoted right now (surge included), lies within [min, max].
 * Book it before the clock moves so the booking is charged the same quote.
 */
export async function tripWithFare(t: TestApp, rideType: string, min: number, max: number) {
  for (let km = 0.5; km <= 60; km += 0.5) {
    const trip = tripNorth(km);
    const quote = asReply(await apiOf(t).send(routes.rides.estimate, { query: { rideType, ...trip } }));
    assertOk(quote, 'estimate');
    if (quote.body.fare >= min && quote.body.fare <= max) return { rideType, ...trip };
    if (quote.body.fare > max) break;
  }
  throw new Error(`no ${rideType} trip costs between ₹${min} and ₹${max} right now`);
}

/** Moves a test app's clock forward to the next `hour:minute` in Asia/Kolkata (+5:30, the default SERVICE_TIMEZONE). */
export function advanceToKolkataTime(t: Pick<TestApp, 'clock'>, hour: number, minute: number): void {
  const day = 24 * 60 * 60_000;
  const sinceMidnight = (t.clock.now() + 330 * 60_000) % day;
  t.clock.advance((((hour * 60 + minute) * 60_000 - sinceMidnight) % day + day) % day);
}
