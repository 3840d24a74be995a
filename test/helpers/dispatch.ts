import assert from 'node:assert/strict';
import { routes } from '../../src/contract/routes.ts';
import type { Offer } from '../../src/contract/types.ts';
import { apiOf } from './api.ts';
import type { TestApp } from './app.ts';
import { signUp, type TestUser } from './factories.ts';
import { TRIP } from './rides.ts';

export const PICKUP = { lat: TRIP.pickupLat, lon: TRIP.pickupLon };

/** A point `km` kilometres due north of `origin` (south when negative). */
export const near = (origin: { lat: number; lon: number }, km: number) => ({ lat: origin.lat + km / 111.2, lon: origin.lon });

/** A point `km` kilometres due north of the pickup point of TRIP. */
export const kmNorth = (km: number) => near(PICKUP, km);

/** Polls `probe` (real time) until it returns something other than undefined. */
export async function eventually<T>(probe: () => Promise<T | undefined>, what: string, timeoutMs = 5_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) assert.fail(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** A driver with a vehicle, online at `at`. */
export async function driverAt(t: TestApp, at: { lat: number; lon: number }, vehicleType = 'mini'): Promise<TestUser> {
  const driver = await signUp(t, { role: 'DRIVER' });
  const profile = await apiOf(t, driver).send(routes.drivers.saveProfile, { body: { vehicleType, vehicleNumber: `KA01AB${String(driver.id).padStart(4, '0')}` } as never });
  assert.equal(profile.status, 200, JSON.stringify(profile.body));
  await report(t, driver, at);
  return driver;
}

export async function report(t: TestApp, driver: TestUser, at: { lat: number; lon: number }): Promise<void> {
  const reply = await apiOf(t, driver).send(routes.drivers.report, { body: at });
  assert.equal(reply.status, 200, JSON.stringify(reply.body));
}

export async function offersOf(t: TestApp, driver: TestUser): Promise<Offer[]> {
  const reply = await apiOf(t, driver).send(routes.offers.pending);
  assert.equal(reply.status, 200, JSON.stringify(reply.body));
  return reply.body as Offer[];
}

/** Waits until the driver holds an offer of the ride. */
export const offerOf = (t: TestApp, driver: TestUser, rideId: number) =>
  eventually(async () => (await offersOf(t, driver)).find((offer) => offer.rideId === rideId), `an offer of ride ${rideId} to driver ${driver.id}`);

/** Waits a few rounds and checks the driver got no offer (beyond those of the rides they already hold). */
export async function noOfferFor(t: TestApp, driver: TestUser, rounds: number, roundMs: number, holding: number[] = []): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, rounds * roundMs));
  assert.deepEqual((await offersOf(t, driver)).map((offer) => offer.rideId), holding, `driver ${driver.id} got no other offer`);
}
