import type { Point } from '../../platform/geo/geo.ts';
import { CITY_SPEED_KMH, straightDistanceKm } from '../../platform/routing/straight-router.ts';
import type { RideType } from '../../platform/vocabulary.ts';
import type { FareEstimate, PricingRules } from './pricing.schemas.ts';

// The arithmetic of what a rider pays, as pure functions of the pricing rules in force. The rules
// themselves are versioned data (pricing_versions); these are version 1, today's numbers.

export const FIRST_RULES: PricingRules = {
  fares: {
    bike: { base: 20, perKm: 6, perMinute: 1, minimum: 30 },
    auto: { base: 30, perKm: 10, perMinute: 1.5, minimum: 40 },
    mini: { base: 50, perKm: 12, perMinute: 2, minimum: 80 },
    sedan: { base: 70, perKm: 15, perMinute: 2.5, minimum: 110 },
    suv: { base: 100, perKm: 20, perMinute: 3, minimum: 150 },
  },
  surgeCap: 2.0,
  cancellation: {
    ACCEPTED: { share: 0.2, min: 20, max: 60 },
    PICKED: { share: 0.4, min: 50, max: 180 },
  },
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

/**
 * fare = max(minimum, base + perKm × km + perMinute × minutes) × surge (at most the cap), in whole rupees.
 * `drivingMinutes` is the router's driving time; without it, the distance at city speed.
 */
export function quoteFare(
  input: { distanceKm: number; drivingMinutes?: number; rideType: RideType; surgeMultiplier: number; pickupEtaMinutes: number },
  rules: PricingRules,
  version: number,
): Quote {
  const rate = rules.fares[input.rideType];
  const distanceKm = round2(input.distanceKm);
  const minutes = input.drivingMinutes === undefined ? durationMinutes(distanceKm) : Math.ceil(settle(input.drivingMinutes));
  const surgeMultiplier = Math.min(rules.surgeCap, Math.max(1, input.surgeMultiplier));
  const distanceFare = round2(rate.perKm * distanceKm);
  const timeFare = round2(rate.perMinute * minutes);
  const fare = Math.round(Math.max(rate.minimum, rate.base + distanceFare + timeFare) * surgeMultiplier);
  return {
    distanceKm,
    durationMinutes: minutes,
    rideType: input.rideType,
    currency: 'INR',
    fare,
    estimatedFare: fare,
    fareMin: Math.floor(settle(fare * QUOTE_RANGE.low)),
    fareMax: Math.ceil(settle(fare * QUOTE_RANGE.high)),
    baseFare: rate.base,
    distanceFare,
    timeFare,
    surgeMultiplier,
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

/** Rules that make sense together (the schema checks each number alone). */
export function checkRules(rules: PricingRules): string[] {
  const problems: string[] = [];
  for (const [type, rate] of Object.entries(rules.fares)) {
    if (rate.minimum < rate.base) problems.push(`fares.${type}.minimum must be at least its base`);
  }
  for (const [status, rule] of Object.entries(rules.cancellation)) {
    if (rule.min > rule.max) problems.push(`cancellation.${status}.min must not exceed its max`);
  }
  return problems;
}
