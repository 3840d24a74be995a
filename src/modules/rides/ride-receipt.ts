import { toIso } from '../../platform/clock.ts';
import type { RideType } from '../../platform/vocabulary.ts';
import { driverShareOf, splitFare } from '../pricing/driver-share.ts';
import { cancellationFee, distanceAndTimeFare, nightMultiplierAt, surgeWithin } from '../pricing/pricing.model.ts';
import type { PricingRules } from '../pricing/pricing.schemas.ts';
import type { FarePart, Receipt, ReceiptInputs, ReceiptKind } from './receipt.schemas.ts';
import { breakdownOf } from './trip-fares.ts';
import type { RideRow } from './rides.repository.ts';

// A receipt as pure functions: built from a ride and the rules of its pricing version, and the same
// arithmetic run again from nothing but a receipt and the public version (scripts/verify-receipt.ts).
// Both go through pricing's own fare functions, so a receipt recomputes to what the service charges.

export type ReceiptRow = Pick<
  RideRow,
  | 'id'
  | 'status'
  | 'ride_type'
  | 'distance_km'
  | 'duration_minutes'
  | 'surge_multiplier'
  | 'fare'
  | 'pricing_version'
  | 'pickup_zone'
  | 'created_at'
  | 'picked_at'
  | 'completed_at'
  | 'cancelled_at'
  | 'cancelled_by'
  | 'cancellation_fee'
  | 'fare_breakdown'
>;

/** What a receipt's arithmetic produces: its breakdown, its fare and who gets what. */
export type ReceiptFigures = Pick<Receipt, 'breakdown' | 'fare' | 'driverShare' | 'driverAmountInInr' | 'platformFeeInInr'>;

const round2 = (value: number) => Math.round(value * 100) / 100;

/** The kind of receipt a ride has: a completed ride's trip, a rider's cancellation fee; none otherwise. */
export function receiptKindOf(ride: Pick<RideRow, 'status' | 'cancellation_fee'>): ReceiptKind | undefined {
  if (ride.status === 'COMPLETED') return 'trip';
  if (ride.status === 'CANCELLED' && (ride.cancellation_fee ?? 0) > 0) return 'cancellation';
  return undefined;
}

/**
 * The trip's fare and its parts, by the fare arithmetic of pricing (`distanceAndTimeFare`, then
 * stops, waiting, tolls and parking on top, to the rupee, as pricing/trip-fare.ts adds them): base,
 * distance, time, the top-up to the minimum, what surge added, what the night window added, stops,
 * waiting, tolls, parking, and the rounding to whole rupees, so the parts add up to the fare.
 */
function tripFigures(rideType: RideType, inputs: ReceiptInputs, rules: PricingRules): { fare: number; breakdown: FarePart[] } {
  const rate = rules.fares[rideType];
  const surge = surgeWithin(rules, inputs.surgeMultiplier);
  const nightMultiplier = inputs.night ? rate.night.multiplier : 1;
  const part = distanceAndTimeFare(rate, inputs.distanceKm, inputs.minutes, surge, nightMultiplier);
  const stopsFare = round2(inputs.stops * rate.perStop);
  const waitingFare = round2(inputs.waitingMinutes * rate.waiting.perMinute);
  const fare = Math.round(part.distanceAndTimeFare + stopsFare + waitingFare + inputs.tollsInInr + inputs.parkingInInr);
  const beforeMinimum = round2(part.baseFare + part.distanceFare + part.timeFare);
  const beforeSurge = Math.max(rate.minimum, beforeMinimum);
  // Each step to the paisa, so the parts add up to the fare exactly.
  const surged = round2(beforeSurge * surge);
  const atNight = round2(surged * nightMultiplier);
  const parts: FarePart[] = [
    { part: 'base', amountInInr: part.baseFare },
    { part: 'distance', amountInInr: part.distanceFare },
    { part: 'time', amountInInr: part.timeFare },
    { part: 'minimum', amountInInr: round2(beforeSurge - beforeMinimum) },
    { part: 'surge', amountInInr: round2(surged - beforeSurge) },
    { part: 'night', amountInInr: round2(atNight - surged) },
    { part: 'stops', amountInInr: stopsFare },
    { part: 'waiting', amountInInr: waitingFare },
    { part: 'tolls', amountInInr: inputs.tollsInInr },
    { part: 'parking', amountInInr: inputs.parkingInInr },
    { part: 'rounding', amountInInr: round2(fare - round2(atNight + stopsFare + waitingFare + inputs.tollsInInr + inputs.parkingInInr)) },
  ];
  return { fare, breakdown: parts.filter((item) => item.part === 'base' || item.amountInInr !== 0) };
}

/** A receipt's figures from its kind, type and inputs under the rules of its version: what a checker recomputes. */
export function receiptFigures(receipt: Pick<Receipt, 'kind' | 'rideType' | 'inputs'>, rules: PricingRules): ReceiptFigures {
  const trip = tripFigures(receipt.rideType, receipt.inputs, rules);
  const share = driverShareOf(rules);
  if (receipt.kind === 'trip') {
    return { ...trip, driverShare: share, ...splitFare(trip.fare, passedThrough(receipt.inputs), share) };
  }
  // The fee the rider was charged for cancelling: the version's rule on the fare the ride was booked at.
  const fee = cancellationFee(receipt.inputs.cancelledWhile ?? 'REQUESTED', true, trip.fare, rules) ?? 0;
  return { breakdown: [{ part: 'cancellationFee', amountInInr: fee }], fare: fee, driverShare: share, ...splitFare(fee, 0, share) };
}

/** Tolls and parking: passed through at cost, all of them the driver's. */
const passedThrough = (inputs: Pick<ReceiptInputs, 'tollsInInr' | 'parkingInInr'>) => inputs.tollsInInr + inputs.parkingInInr;

/** Tolls and parking the ride's driver added, as receipts and earnings count them. */
export function passedThroughOf(ride: ReceiptRow): number {
  const { tollsInInr, parkingInInr } = chargedExtras(ride);
  return tollsInInr + parkingInInr;
}

/** Stops, waiting, tolls and parking as the ride charged them: none on the upfront quote of a ride without a trip fare. */
function chargedExtras(ride: ReceiptRow): Pick<ReceiptInputs, 'stops' | 'waitingMinutes' | 'tollsInInr' | 'parkingInInr'> {
  const breakdown = breakdownOf(ride);
  if (!breakdown) return { stops: 0, waitingMinutes: 0, tollsInInr: 0, parkingInInr: 0 };
  return { stops: breakdown.stops, waitingMinutes: breakdown.waitingMinutes, tollsInInr: breakdown.tollsFare, parkingInInr: breakdown.parkingFare };
}

/**
 * The inputs a ride's fare was computed from, as its row records them. Its fare is the upfront quote,
 * whose night window was decided on the expected drop: booked at `created_at`, `duration_minutes` later.
 */
function inputsOf(ride: ReceiptRow, kind: ReceiptKind, rules: PricingRules, timeZone: string): ReceiptInputs {
  const rate = rules.fares[ride.ride_type as RideType];
  // A ride completed with its trip fare: the distance, minutes and night it was charged for.
  const breakdown = kind === 'trip' ? breakdownOf(ride) : null;
  if (breakdown) {
    return {
      distanceKm: breakdown.distanceKm,
      minutes: breakdown.durationMinutes,
      zone: ride.pickup_zone,
      surgeMultiplier: breakdown.surgeMultiplier,
      night: breakdown.night,
      ...chargedExtras(ride),
      cancelledWhile: null,
    };
  }
  return {
    distanceKm: ride.distance_km,
    minutes: ride.duration_minutes,
    zone: ride.pickup_zone,
    surgeMultiplier: ride.surge_multiplier,
    night: nightMultiplierAt(rate, ride.created_at + ride.duration_minutes * 60_000, timeZone) > 1,
    ...(kind === 'trip' ? chargedExtras(ride) : { stops: 0, waitingMinutes: 0, tollsInInr: 0, parkingInInr: 0 }),
    cancelledWhile: kind === 'cancellation' ? (ride.picked_at === null ? 'ACCEPTED' : 'PICKED') : null,
  };
}

/**
 * A ride's receipt. Its fare is what the ride charged (the fare, or the cancellation fee), whatever the
 * arithmetic gives: a receipt never hides a difference, it shows it to whoever recomputes it.
 */
export function buildReceipt(ride: ReceiptRow, kind: ReceiptKind, rules: PricingRules, timeZone: string): Receipt {
  const rideType = ride.ride_type as RideType;
  const inputs = inputsOf(ride, kind, rules, timeZone);
  const figures = receiptFigures({ kind, rideType, inputs }, rules);
  const charged = kind === 'trip' ? ride.fare : (ride.cancellation_fee ?? 0);
  const share = figures.driverShare;
  return {
    receiptVersion: 1,
    kind,
    rideId: ride.id,
    rideType,
    currency: 'INR',
    endedAt: toIso((kind === 'trip' ? ride.completed_at : ride.cancelled_at) ?? 0),
    pricingVersion: ride.pricing_version,
    inputs,
    breakdown: figures.breakdown,
    fare: charged,
    driverShare: share,
    ...splitFare(charged, kind === 'trip' ? passedThrough(inputs) : 0, share),
  };
}

/** Where a receipt differs from its recomputation (empty: it adds up). */
export function receiptMismatches(receipt: Receipt, recomputed: ReceiptFigures): string[] {
  const problems: string[] = [];
  const field = (name: keyof ReceiptFigures) => {
    const [given, computed] = [JSON.stringify(receipt[name]), JSON.stringify(recomputed[name])];
    if (given !== computed) problems.push(`${name}: the receipt says ${given}, the pricing version gives ${computed}`);
  };
  for (const name of ['fare', 'breakdown', 'driverShare', 'driverAmountInInr', 'platformFeeInInr'] as const) field(name);
  return problems;
}
