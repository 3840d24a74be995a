// The quality figure: one synthetic city day replayed through the dispatcher's own decision
// (pairRides over a snapshot of the available drivers: the search and the pairing a round runs), once per mode,
// deterministic from its seeds; no database, no clock but the replay's own.
//
// The model: DRIVERS drivers are online all day; a free driver waits where their last trip ended
// and reports every minute. Riders book by a Poisson process whose hourly rate is DEMAND[hour] ×
// the fleet's capacity (the trips an hour the drivers can carry: drivers × 60 / the minutes a
// trip keeps a driver busy), so the peak hours ask three times what the fleet can carry. Every
// offer is accepted at once and keeps the driver busy for the drive to the pickup and the trip
// (road factor, city speed); a ride nobody is offered within DISPATCH_MAX_SECONDS is lost.
// `nearest` runs a round at each booking and every 2 s, as the service does (a booking nudges it);
// `batched` runs one every 2 s.
import { AvailableDrivers } from '../../src/modules/dispatch/available-drivers.ts';
import { pairRides, searchRadiusKm } from '../../src/modules/dispatch/dispatcher.ts';
import { PickupWays } from '../../src/modules/dispatch/pickup-ways.ts';
import { CITY_SPEED_KMH, roadDistanceKm, ROAD_FACTOR } from '../../src/modules/pricing/pricing.model.ts';
import type { Point } from '../../src/platform/geo/geo.ts';
import { StraightRouter } from '../../src/platform/routing/straight-router.ts';
import { cityDrivers, cityPoint, cityRide, dropFor, memoryIndexes, random } from './dispatch-city.ts';

/** Demand per hour of the day, as a multiple of the fleet's capacity: a morning and an evening peak at 3×. */
export const DEMAND = [0.15, 0.1, 0.1, 0.1, 0.15, 0.3, 0.7, 1.5, 3, 3, 1.5, 0.9, 0.8, 0.8, 0.7, 0.8, 1.2, 2.2, 3, 3, 2, 1, 0.6, 0.3];
export const PEAK_HOURS = DEMAND.flatMap((demand, hour) => (demand === 3 ? [hour] : []));
export const OFF_PEAK_HOURS = DEMAND.flatMap((demand, hour) => (demand <= 1 ? [hour] : []));

const TICK_MS = 2_000; // DISPATCH_BATCH_MS
const OFFER_TTL_MS = 15_000; // DISPATCH_OFFER_TTL_SECONDS: the radius widens after each period
const MAX_WAIT_MS = 120_000; // DISPATCH_MAX_SECONDS
const REPORT_EVERY_MS = 60_000;
const HOUR_MS = 3_600_000;
const DAY_START = Date.UTC(2026, 10, 25);
/** The drive to a pickup, counted in the capacity: the 2 km of the first search radius. */
const PICKUP_ALLOWANCE_KM = 2;

export interface HourFigures {
  requested: number;
  matched: number;
  pickupKm: number;
}

const minutesFor = (roadKm: number) => (roadKm / CITY_SPEED_KMH) * 60;
/** The service's default router: straight lines times the road factor, at city speed. */
const ways = new PickupWays({ router: new StraightRouter() });

/** Trips an hour `drivers` can carry: each trip keeps its driver busy for the drive to the pickup and the ride. */
export function capacityPerHour(drivers: number, seed: number): number {
  const next = random(seed);
  let minutes = 0;
  const samples = 20_000;
  for (let i = 0; i < samples; i++) {
    const pickup = cityPoint(next);
    minutes += minutesFor(PICKUP_ALLOWANCE_KM * ROAD_FACTOR + roadDistanceKm(pickup, dropFor(pickup, next)));
  }
  return (drivers * 60) / (minutes / samples);
}

export async function replayDay(mode: 'nearest' | 'batched', options: { drivers: number; seed: number }): Promise<HourFigures[]> {
  let now = DAY_START;
  const clock = { now: () => now };
  const indexes = memoryIndexes(clock.now);
  const pool = new AvailableDrivers(indexes, clock);
  // Separate streams, so both modes see the same drivers and the same bookings.
  const drivers = cityDrivers(options.drivers, random(options.seed), now);
  const bookings = random(options.seed + 1);
  const capacity = capacityPerHour(options.drivers, options.seed + 2);
  const hours: HourFigures[] = DEMAND.map(() => ({ requested: 0, matched: 0, pickupKm: 0 }));
  const hourOf = (at: number) => Math.floor((at - DAY_START) / HOUR_MS);
  const free = new Set(drivers.map((driver) => driver.id));
  const busy: Array<{ id: number; until: number; at: Point }> = [];
  let waiting: Array<ReturnType<typeof cityRide>> = [];
  for (const driver of drivers) await pool.put(driver.vehicle, driver.position);

  const nextBooking = (after: number) => after - (Math.log(1 - bookings()) / (DEMAND[Math.min(23, hourOf(after))] * capacity)) * HOUR_MS;

  const settle = async () => {
    for (let i = busy.length - 1; i >= 0; i--) {
      const trip = busy[i];
      if (trip.until > now) continue;
      busy.splice(i, 1);
      const driver = drivers[trip.id - 1];
      driver.position = { driverId: trip.id, ...trip.at, updatedAt: now };
      free.add(trip.id);
      await pool.move(driver.vehicle, driver.position);
    }
    waiting = waiting.filter((ride) => ride.searchingSince > now - MAX_WAIT_MS);
  };

  const round = async () => {
    if (waiting.length === 0) return;
    const pairs = await pairRides(await pool.snapshot(), waiting, mode, (ride) => searchRadiusKm(now - ride.searchingSince, OFFER_TTL_MS), ways);
    const matched = new Set<number>();
    for (const { ride, driver } of pairs) {
      matched.add(ride.id);
      free.delete(driver.driverId);
      await pool.remove(driver.driverId);
      busy.push({ id: driver.driverId, until: now + minutesFor(driver.distanceKm * ROAD_FACTOR + roadDistanceKm(ride.pickup, ride.drop)) * 60_000, at: ride.drop });
      const figures = hours[hourOf(ride.searchingSince)];
      figures.matched += 1;
      figures.pickupKm += driver.distanceKm;
    }
    waiting = waiting.filter((ride) => !matched.has(ride.id));
  };

  let booking = nextBooking(now);
  let reported = now;
  let id = 0;
  try {
    for (let tick = DAY_START + TICK_MS; tick <= DAY_START + 24 * HOUR_MS; tick += TICK_MS) {
      while (booking <= tick) {
        now = booking;
        await settle();
        const ride = cityRide(++id, bookings, now);
        waiting.push(ride);
        hours[Math.min(23, hourOf(now))].requested += 1;
        if (mode === 'nearest') await round();
        booking = nextBooking(now);
      }
      now = tick;
      await settle();
      if (now - reported >= REPORT_EVERY_MS) {
        reported = now;
        for (const driverId of free) {
          const driver = drivers[driverId - 1];
          driver.position = { ...driver.position, updatedAt: now };
          await pool.move(driver.vehicle, driver.position);
        }
      }
      await round();
    }
  } finally {
    await Promise.all(Object.values(indexes).map((index) => index.close()));
  }
  return hours;
}

/** Mean pickup distance (km) and share matched over some hours. */
export function summary(hours: readonly HourFigures[], which: readonly number[]): { meanPickupKm: number; matchedShare: number; requested: number } {
  const picked = which.map((hour) => hours[hour]);
  const requested = picked.reduce((sum, h) => sum + h.requested, 0);
  const matched = picked.reduce((sum, h) => sum + h.matched, 0);
  const km = picked.reduce((sum, h) => sum + h.pickupKm, 0);
  return { meanPickupKm: matched ? km / matched : 0, matchedShare: requested ? matched / requested : 0, requested };
}
