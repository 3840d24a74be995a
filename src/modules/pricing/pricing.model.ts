import { localWeekMinute } from '../../platform/clock.ts';
import type { Point } from '../../platform/geo/geo.ts';
import { CITY_SPEED_KMH, straightDistanceKm } from '../../platform/routing/straight-router.ts';
import type { RideType } from '../../platform/vocabulary.ts';
import type { FareEstimate, NightRule, PricingRules, Rate } from './pricing.schemas.ts';

// The arithmetic of what a rider pays, as pure functions of the pricing rules in force. The rules
// themselves are versioned data (pricing_versions). FIRST_RULES is version 1, the numbers the service
// was built with, in the version-2 document (migration 2026-11-28-11): its base covers no kilometres,
// waiting is free, the night costs nothing extra, there are no stops, tolls or driver penalties, so
// every fare it quotes is the one it always quoted.

const V1_EXTRAS = { waiting: { freeMinutes: 3, perMinute: 0 }, night: { start: '23:00', end: '05:00', multiplier: 1 }, perStop: 0 };

export const FIRST_RULES: PricingRules = {
  fares: {
    bike: { base: 20, baseKm: 0, perKm: 6, perMinute: 1, minimum: 30, ...V1_EXTRAS },
    auto: { base: 30, baseKm: 0, perKm: 10, perMinute: 1.5, minimum: 40, ...V1_EXTRAS },
    mini: { base: 50, baseKm: 0, perKm: 12, perMinute: 2, minimum: 80, ...V1_EXTRAS },
    sedan: { base: 70, baseKm: 0, perKm: 15, perMinute: 2.5, minimum: 110, ...V1_EXTRAS },
    suv: { base: 100, baseKm: 0, perKm: 20, perMinute: 3, minimum: 150, ...V1_EXTRAS },
  },
  surgeFloor: 1.0,
  surgeCap: 2.0,
  driverShare: 0.8,
  tollsAndParking: { capPerRide: 0 },
  cancellation: {
    ACCEPTED: { share: 0.2, min: 20, max: 60 },
    PICKED: { share: 0.4, min: 50, max: 180 },
  },
  driverCancellation: { share: 0, min: 0, max: 0 },
  validCancellationReasons: [],
};

// The straight provider's numbers (platform/routing): what the fare used before routing, and still does by default.
export { CITY_SPEED_KMH, ROAD_FACTOR } from '../../platform/routing/straight-router.ts';
/** The range shown around a quote: ±10 %. The booked fare is the quote's `fare`. */
export const QUOTE_RANGE = { low: 0.9, high: 1.1 };

/** An estimate as the API shows it (without who routed it), and the pricing version behind it (which a booking records). */
export type Quote = Omit<FareEstimate, 'routeProvider'> & { pricingVersion: number };

const round2 = (value: number) => Math.round(value * 100) / 100;
// Floating point turns 8.4 / 24 × 60 into 21.000000000000004; settle to 6 decimals before ceil/floor.
const settle = (value: number) => Math.round(value * 1e6) / 1e6;

/** Road distance between two points by the straight provider, to 10 m. */
export const roadDistanceKm = (pickup: Point, drop: Point): number => straightDistanceKm(pickup, drop);

export const durationMinutes = (distanceKm: number): number => Math.ceil(settle((distanceKm / CITY_SPEED_KMH) * 60));

/** The part of a fare that distance and time decide (before waiting, stops, tolls and parking). */
export interface DistanceAndTime {
  baseFare: number;
  baseKm: number;
  distanceFare: number;
  timeFare: number;
  minimumApplied: boolean;
  distanceAndTimeFare: number;
}

/**
 * max(minimum, base + perKm × (km beyond baseKm) + perMinute × minutes) × surge × night, in whole
 * rupees. With baseKm 0 and a night multiplier of 1 this is version 1's fare to the rupee.
 */
export function distanceAndTimeFare(rate: Rate, distanceKm: number, minutes: number, surgeMultiplier: number, nightMultiplier: number): DistanceAndTime {
  const distanceFare = round2(rate.perKm * Math.max(0, settle(distanceKm - rate.baseKm)));
  const timeFare = round2(rate.perMinute * minutes);
  const metered = rate.base + distanceFare + timeFare;
  return {
    baseFare: rate.base,
    baseKm: rate.baseKm,
    distanceFare,
    timeFare,
    minimumApplied: rate.minimum > metered,
    distanceAndTimeFare: Math.round(Math.max(rate.minimum, metered) * surgeMultiplier * nightMultiplier),
  };
}

/** The zone's surge, held between the version's floor and cap. */
export const surgeWithin = (rules: PricingRules, surge: number): number => Math.min(rules.surgeCap, Math.max(rules.surgeFloor, surge));

/** Whether `epochMs` falls in the night window (local time in the zone; a window past midnight wraps; start = end is no window). */
export function inNightWindow(epochMs: number, timeZone: string, night: NightRule): boolean {
  const minute = localWeekMinute(epochMs, timeZone).minuteOfDay;
  const start = minutesOf(night.start);
  const end = minutesOf(night.end);
  if (start === end) return false;
  return start < end ? minute >= start && minute < end : minute >= start || minute < end;
}

/** The night window's multiplier for a trip dropped at `dropAt`, 1 outside it. */
export const nightMultiplierAt = (rate: Rate, dropAt: number, timeZone: string): number => (inNightWindow(dropAt, timeZone, rate.night) ? rate.night.multiplier : 1);

const minutesOf = (time: string): number => Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5));

/** The most stops a trip may have between pickup and drop. */
export const MAX_STOPS = 3;

/** What the stops of a trip add to its fare: the ride type's perStop each (neither surge nor night changes it). */
export const stopsFare = (rate: Rate, stops: number): number => round2(stops * rate.perStop);

/**
 * The upfront quote: the distance-and-time part under the rules in force, the surge between the
 * version's floor and cap, the night multiplier when the trip is expected to end in the window (now
 * plus its driving minutes), and `perStop` for each stop on the way. `drivingMinutes` is the router's
 * driving time; without it, the distance at city speed.
 */
export function quoteFare(
  input: { distanceKm: number; drivingMinutes?: number; rideType: RideType; surgeMultiplier: number; pickupEtaMinutes: number; now: number; timeZone: string; stops?: number },
  rules: PricingRules,
  version: number,
): Quote {
  const rate = rules.fares[input.rideType];
  const distanceKm = round2(input.distanceKm);
  const minutes = input.drivingMinutes === undefined ? durationMinutes(distanceKm) : Math.ceil(settle(input.drivingMinutes));
  const surgeMultiplier = surgeWithin(rules, input.surgeMultiplier);
  const nightMultiplier = nightMultiplierAt(rate, input.now + minutes * 60_000, input.timeZone);
  const part = distanceAndTimeFare(rate, distanceKm, minutes, surgeMultiplier, nightMultiplier);
  const stops = input.stops ?? 0;
  const forStops = stopsFare(rate, stops);
  const fare = Math.round(part.distanceAndTimeFare + forStops);
  return {
    distanceKm,
    durationMinutes: minutes,
    rideType: input.rideType,
    currency: 'INR',
    fare,
    estimatedFare: fare,
    fareMin: Math.floor(settle(fare * QUOTE_RANGE.low)),
    fareMax: Math.ceil(settle(fare * QUOTE_RANGE.high)),
    baseFare: part.baseFare,
    distanceFare: part.distanceFare,
    timeFare: part.timeFare,
    stops,
    stopsFare: forStops,
    surgeMultiplier,
    nightMultiplier,
    ...etaRange(input.pickupEtaMinutes),
    pricingVersion: version,
  };
}

/** The pickup wait shown around an expected one: two minutes sooner to three later, never under a minute. */
function etaRange(pickupEtaMinutes: number): { etaMinMinutes: number; etaMaxMinutes: number } {
  const eta = Math.max(1, Math.round(pickupEtaMinutes));
  return { etaMinMinutes: Math.max(1, eta - 2), etaMaxMinutes: eta + 3 };
}

/** A quote whose pickup wait is known better than the forecast's (the nearest available driver's way). */
export function withPickupWait<T extends Pick<FareEstimate, 'etaMinMinutes' | 'etaMaxMinutes'>>(quote: T, pickupEtaMinutes: number): T {
  return { ...quote, ...etaRange(pickupEtaMinutes) };
}

/**
 * What the rider owes for cancelling: nothing while the ride is REQUESTED, a share of the fare once a
 * driver is on the way or on board. A driver's or an admin's cancellation costs the rider nothing.
 */
export function cancellationFee(status: string, byRider: boolean, fare: number, rules: PricingRules): number | null {
  if (!byRider) return null;
  const rule = status === 'ACCEPTED' || status === 'PICKED' ? rules.cancellation[status] : undefined;
  if (!rule) return null;
  return Math.min(rule.max, Math.max(rule.min, Math.round(fare * rule.share)));
}

/**
 * What a driver owes for cancelling a ride they accepted (ACCEPTED or PICKED), under the version's
 * driverCancellation rule; null when the rule charges nothing. Their earnings carry it.
 */
export function driverPenalty(status: string, fare: number, rules: PricingRules): number | null {
  if (status !== 'ACCEPTED' && status !== 'PICKED') return null;
  const rule = rules.driverCancellation;
  const penalty = Math.min(rule.max, Math.max(rule.min, Math.round(fare * rule.share)));
  return penalty > 0 ? penalty : null;
}

/** Rules that make sense together (the schema checks each number alone). */
export function checkRules(rules: PricingRules): string[] {
  const problems: string[] = [];
  for (const [type, rate] of Object.entries(rules.fares)) {
    if (rate.minimum < rate.base) problems.push(`fares.${type}.minimum must be at least its base`);
  }
  for (const [status, rule] of Object.entries(rules.cancellation)) {
    if (rule.min > rule.max) problems.push(`cancellation.${status}.min must not exceed its max`);
  }
  if (rules.driverCancellation.min > rules.driverCancellation.max) problems.push('driverCancellation.min must not exceed its max');
  if (rules.surgeFloor > rules.surgeCap) problems.push('surgeFloor must not exceed surgeCap');
  return problems;
}
