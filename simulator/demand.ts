import type { RideType, VehicleType } from './api-types.ts';
import type { City, DemandCentre } from './cities.ts';
import { haversineKm, inBox, offsetKm, rounded, type Point } from './geo.ts';
import { Random } from './random.ts';
import { riderPlan, tripStops, type RiderPlan } from './behaviour.ts';

// When and where people want to go. The whole day's requests are planned before the run starts,
// from the seed alone, so two runs with one seed book the same trips at the same simulated times.

/** Demand through the day, relative to the busiest hour; value i holds at i:30 (linear in between). */
export const DAY_CURVE = [
  0.12, 0.08, 0.06, 0.05, 0.07, 0.15, 0.35, 0.7, 1, 0.95, 0.7, 0.55, 0.55, 0.5, 0.5, 0.55, 0.7, 0.9, 1, 0.95, 0.75, 0.55, 0.38, 0.22,
];

/** Minutes a driver typically drives to a pickup, for the capacity estimate below. */
const PICKUP_ALLOWANCE_MINUTES = 8;
const CAPACITY_SAMPLES = 400;
/** Share of trip ends anywhere in the city rather than near a demand centre. */
const SCATTERED_SHARE = 0.15;
/** Destinations grow less likely with distance (gravity model): weight × e^(−km / this). */
const GRAVITY_KM = 7;
const MIN_TRIP_KM = 1.5;
const MAX_TRIP_KM = 20;
const MINUTES_PER_DAY = 24 * 60;
const MINUTE_MS = 60_000;

export interface DayOptions {
  seed: number;
  city: City;
  /** Time of day the run starts at, in minutes after midnight. */
  startMinute: number;
  /** Simulated minutes during which riders book. */
  minutes: number;
  riders: number;
  drivers: number;
  /** Requests at the busiest hour, as a multiple of what the drivers can serve. */
  load: number;
}

export interface Place {
  point: Point;
  /** What a rider would type: the neighbourhood it is in or near. */
  name: string;
}

export interface PlannedBooking {
  index: number;
  /** Simulated ms after the start of the run. */
  at: number;
  /** The rider who books it (the next free one when that rider is still on a trip). */
  rider: number;
  pickup: Place;
  drop: Place;
  rideType: RideType;
  /** Stops on the way, in order (most bookings have none). */
  stops: Point[];
  plan: RiderPlan;
}

export interface PlannedDriver {
  index: number;
  start: Point;
  vehicle: VehicleType;
  /** Simulated ms after the start of the run when the driver goes online. */
  onlineAfterMs: number;
}

/** Relative demand (0–1) at a time of day. */
export function demandAt(minuteOfDay: number): number {
  const hours = (((minuteOfDay / 60 - 0.5) % 24) + 24) % 24;
  const i = Math.floor(hours);
  const f = hours - i;
  return DAY_CURVE[i] * (1 - f) + DAY_CURVE[(i + 1) % 24] * f;
}

/** How much of the morning commute (towards jobs) and of the evening one (back home) is under way: 0–1 each. */
export function commute(minuteOfDay: number): { morning: number; evening: number } {
  const bump = (peakMinute: number) => Math.max(0, 1 - Math.abs(minuteOfDay - peakMinute) / 180);
  return { morning: bump(9 * 60), evening: bump(18.5 * 60) };
}

export const minuteOfDay = (startMinute: number, simMs: number): number => (startMinute + simMs / MINUTE_MS) % MINUTES_PER_DAY;

/** `HH:MM`, the time of day `simMs` into a run that started at `startMinute`. */
export function clockLabel(startMinute: number, simMs: number): string {
  const minute = Math.floor(minuteOfDay(startMinute, simMs));
  return `${String(Math.floor(minute / 60)).padStart(2, '0')}:${String(minute % 60).padStart(2, '0')}`;
}

/** Every request of the run, in time order: a Poisson process thinned by the day curve. */
export function planBookings(options: DayOptions): PlannedBooking[] {
  const { seed, city, startMinute, minutes } = options;
  const peakPerMinute = (options.load * options.drivers * ridesPerDriverHour(city)) / 60;
  const bookings: PlannedBooking[] = [];
  if (peakPerMinute <= 0 || options.riders === 0) return bookings;
  const arrivals = Random.of(seed, 'arrivals');
  for (let minute = arrivals.exponential(1 / peakPerMinute); minute < minutes; minute += arrivals.exponential(1 / peakPerMinute)) {
    const time = minuteOfDay(startMinute, minute * MINUTE_MS);
    if (!arrivals.chance(demandAt(time))) continue;
    const index = bookings.length;
    const random = Random.of(seed, 'booking', index);
    const rider = Math.floor(random.next() * options.riders);
    const { pickup, drop } = trip(city, time, random);
    const stops = tripStops(seed, index, pickup.point, drop.point);
    bookings.push({ index, at: Math.round(minute * MINUTE_MS), rider, pickup, drop, rideType: random.share(city.rideMix), stops, plan: riderPlan(seed, index) });
  }
  return bookings;
}

/**
 * Rides one driver can serve in an hour in this city: an hour over a typical pickup drive plus a
 * typical trip, measured on a sample of the city's own commute trips. `--load 1` asks for exactly
 * that at the busiest hour; the sample does not depend on the seed, so neither does the load.
 */
export function ridesPerDriverHour(city: City): number {
  const random = Random.of('capacity', city.name);
  let km = 0;
  for (let i = 0; i < CAPACITY_SAMPLES; i++) {
    const { pickup, drop } = trip(city, i % 2 === 0 ? 9 * 60 : 18.5 * 60, random);
    km += haversineKm(pickup.point, drop.point) * city.roadFactor;
  }
  const tripMinutes = (km / CAPACITY_SAMPLES / city.speedKmh) * 60;
  return 60 / (tripMinutes + PICKUP_ALLOWANCE_MINUTES);
}

/** Where each driver starts, with what vehicle, and when they go online (all within the first two minutes). */
export function planDrivers(options: Pick<DayOptions, 'seed' | 'city' | 'drivers' | 'startMinute'>): PlannedDriver[] {
  return Array.from({ length: options.drivers }, (_, index) => {
    const random = Random.of(options.seed, 'driver', index);
    const start = place(options.city, random, (centre) => centre.homes + centre.jobs).point;
    return { index, start, vehicle: random.share(options.city.rideMix), onlineAfterMs: Math.round(random.between(0, 2 * MINUTE_MS)) };
  });
}

/** A centre an idle driver heads for: where the demand is at this time of day. */
export function busyCentre(city: City, minute: number, random: Random): DemandCentre {
  return random.weighted(city.centres, (centre) => originWeight(centre, minute));
}

function originWeight(centre: DemandCentre, minute: number): number {
  const { morning, evening } = commute(minute);
  return morning * centre.homes + evening * centre.jobs + (1 - morning - evening) * ((centre.homes + centre.jobs) / 2);
}

function destinationWeight(centre: DemandCentre, minute: number): number {
  const { morning, evening } = commute(minute);
  return morning * centre.jobs + evening * centre.homes + (1 - morning - evening) * ((centre.homes + centre.jobs) / 2);
}

function trip(city: City, minute: number, random: Random): { pickup: Place; drop: Place } {
  for (let attempt = 0; ; attempt++) {
    const pickup = place(city, random, (centre) => originWeight(centre, minute));
    const drop = place(city, random, (centre) => destinationWeight(centre, minute) * Math.exp(-haversineKm(centre, pickup.point) / GRAVITY_KM));
    const km = haversineKm(pickup.point, drop.point);
    // A city too small for the bounds still gets its trips, after a few tries.
    if ((km >= MIN_TRIP_KM && km <= MAX_TRIP_KM) || attempt >= 20) return { pickup, drop };
  }
}

function place(city: City, random: Random, weight: (centre: DemandCentre) => number): Place {
  for (;;) {
    let point: Point;
    if (random.chance(SCATTERED_SHARE)) {
      point = { lat: random.between(city.box.south, city.box.north), lon: random.between(city.box.west, city.box.east) };
    } else {
      const centre = random.weighted(city.centres, weight);
      point = offsetKm(centre, random.normal() * centre.spreadKm, random.normal() * centre.spreadKm);
    }
    if (inBox(point, city.box)) return { point: rounded(point), name: nearestName(city, point) };
  }
}

function nearestName(city: City, point: Point): string {
  let best = city.centres[0];
  for (const centre of city.centres) if (haversineKm(centre, point) < haversineKm(best, point)) best = centre;
  return haversineKm(best, point) < 2 * best.spreadKm ? best.name : `near ${best.name}, ${city.name}`;
}
