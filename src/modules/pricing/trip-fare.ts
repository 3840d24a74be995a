import type { RideType } from '../../platform/vocabulary.ts';
import { distanceAndTimeFare, nightMultiplierAt, stopsFare } from './pricing.model.ts';
import type { FareBreakdown, PricingRules, TripCharge } from './pricing.schemas.ts';

// The fare of the trip that happened (decisions.md "Fare policy": upfront, then the trip), as a pure
// function. The distance-and-time part is the upfront one (its distance and minutes, the booking's
// surge) with the night multiplier of the actual drop time, unless the same part computed from the
// trip's own distance and minutes exceeds it by more than the tolerance: then that one, with the
// reason; after a destination change the upfront part is the confirmed route's, and the reason says
// so. Waiting beyond the free minutes (per started minute, at the pickup and at each stop), stops,
// tolls and parking go on top.

const round2 = (value: number) => Math.round(value * 100) / 100;
const settle = (value: number) => Math.round(value * 1e6) / 1e6;

export interface TripFacts {
  rideType: RideType;
  pricingVersion: number;
  /** What the booking was quoted (after a destination change: the confirmed route's distance and minutes, the booking's fare). */
  upfront: { distanceKm: number; durationMinutes: number; surgeMultiplier: number; fare: number };
  /** Along the driver's positions from pickup to drop (gaps filled by the router), and the minutes from pickup to drop. */
  trip: { distanceKm: number; minutes: number };
  /** Minutes from the driver's arrival within 100 m of the pickup to the pickup (0 when they never reported one). */
  waitedMinutes: number;
  stops: number;
  /** Minutes waited at each stop reached, from the driver's mark to leaving it (each has the free minutes, like the pickup). */
  stopWaitedMinutes: readonly number[];
  charges: TripCharge[];
  dropAt: number;
  timeZone: string;
  /** Set when the rider changed the destination: the upfront distance and minutes are the new route's, and this says so. */
  destinationReason?: string | null;
  /** FARE_RECOMPUTE_TOLERANCE: how far (a share) the trip may exceed the upfront distance-and-time part before it is recomputed. */
  tolerance: number;
}

/** Started minutes waited beyond the free ones. */
export const chargedWaitingMinutes = (waitedMinutes: number, freeMinutes: number): number => Math.max(0, Math.ceil(settle(waitedMinutes - freeMinutes)));

export function tripFare(facts: TripFacts, rules: PricingRules): FareBreakdown {
  const rate = rules.fares[facts.rideType];
  const nightMultiplier = nightMultiplierAt(rate, facts.dropAt, facts.timeZone);
  const surge = facts.upfront.surgeMultiplier;
  const upfrontPart = distanceAndTimeFare(rate, facts.upfront.distanceKm, facts.upfront.durationMinutes, surge, nightMultiplier);
  const tripKm = round2(facts.trip.distanceKm);
  const tripPart = distanceAndTimeFare(rate, tripKm, facts.trip.minutes, surge, nightMultiplier);
  const fromTrip = tripPart.distanceAndTimeFare > upfrontPart.distanceAndTimeFare * (1 + facts.tolerance);
  const part = fromTrip ? tripPart : upfrontPart;
  const stopWaitingMinutes = facts.stopWaitedMinutes.reduce((total, waited) => total + chargedWaitingMinutes(waited, rate.waiting.freeMinutes), 0);
  const waitingMinutes = chargedWaitingMinutes(facts.waitedMinutes, rate.waiting.freeMinutes) + stopWaitingMinutes;
  const waitingFare = round2(waitingMinutes * rate.waiting.perMinute);
  const forStops = stopsFare(rate, facts.stops);
  const sum = (kind: TripCharge['kind']) => facts.charges.filter((charge) => charge.kind === kind).reduce((total, charge) => total + charge.amountInInr, 0);
  const tollsFare = sum('toll');
  const parkingFare = sum('parking');
  return {
    pricingVersion: facts.pricingVersion,
    rideType: facts.rideType,
    distanceKm: fromTrip ? tripKm : facts.upfront.distanceKm,
    durationMinutes: fromTrip ? facts.trip.minutes : facts.upfront.durationMinutes,
    baseFare: part.baseFare,
    baseKm: part.baseKm,
    distanceFare: part.distanceFare,
    timeFare: part.timeFare,
    minimumApplied: part.minimumApplied,
    surgeMultiplier: surge,
    night: nightMultiplier !== 1,
    nightMultiplier,
    distanceAndTimeFare: part.distanceAndTimeFare,
    stops: facts.stops,
    stopsFare: forStops,
    waitingMinutes,
    stopWaitingMinutes,
    waitingFare,
    charges: facts.charges,
    tollsFare,
    parkingFare,
    fare: Math.round(part.distanceAndTimeFare + forStops + waitingFare + tollsFare + parkingFare),
    upfrontFare: facts.upfront.fare,
    recomputed: fromTrip || Boolean(facts.destinationReason),
    recomputeReason: fromTrip
      ? `the trip (${tripKm} km, ${facts.trip.minutes} min: ₹${tripPart.distanceAndTimeFare}) exceeded the upfront distance and time (${facts.upfront.distanceKm} km, ${facts.upfront.durationMinutes} min: ₹${upfrontPart.distanceAndTimeFare}) by more than ${Math.round(facts.tolerance * 100)} %`
      : (facts.destinationReason ?? null),
    tripDistanceKm: tripKm,
    tripMinutes: facts.trip.minutes,
  };
}
