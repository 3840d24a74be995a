import { Type, type Static } from 'typebox';
import { Nullable, Timestamp } from '../../platform/schemas.ts';
import { ROUTE_PROVIDERS } from '../../platform/routing/router.ts';
import { RIDE_TYPES } from '../../platform/vocabulary.ts';

const Rupees = (description: string) => Type.Number({ minimum: 0, maximum: 100_000, description });

/** A wall-clock time of day in SERVICE_TIMEZONE, `HH:MM` (24-hour). */
const ClockTime = (description: string) => Type.String({ pattern: '^([01][0-9]|2[0-3]):[0-5][0-9]$', description });

export const WaitingRule = Type.Object({
  freeMinutes: Type.Integer({ minimum: 0, maximum: 60, default: 3, description: 'Minutes a driver waits at the pickup for free, from arriving within 100 m' }),
  perMinute: Rupees('Per started minute of waiting beyond the free ones'),
});
export type WaitingRule = Static<typeof WaitingRule>;

export const NightRule = Type.Object({
  start: ClockTime('When the night window opens (default 23:00, SERVICE_TIMEZONE)'),
  end: ClockTime('When it closes (default 05:00); a window past midnight wraps'),
  multiplier: Type.Number({ minimum: 1, maximum: 3, description: 'On the distance-and-time part of a trip dropped inside the window (1: no night charge)' }),
});
export type NightRule = Static<typeof NightRule>;

export const Rate = Type.Object({
  base: Rupees('Flag fare: covers the first baseKm'),
  baseKm: Type.Number({ minimum: 0, maximum: 100, default: 3, description: 'Kilometres the base fare covers (version 1 documents: 0)' }),
  perKm: Rupees('Per kilometre of road distance beyond baseKm'),
  perMinute: Rupees('Per minute of driving'),
  minimum: Rupees('The least the distance-and-time part costs before surge'),
  waiting: WaitingRule,
  night: NightRule,
  perStop: Rupees('Per stop on the way'),
});
export type Rate = Static<typeof Rate>;

export const CancellationRule = Type.Object({
  share: Type.Number({ minimum: 0, maximum: 1, description: 'Share of the fare' }),
  min: Rupees('At least'),
  max: Rupees('At most'),
});
export type CancellationRule = Static<typeof CancellationRule>;

/** The compliance profiles a version may name (pricing/compliance). */
export const COMPLIANCE_PROFILES = ['IN-MVAG-2025'] as const;
export type ComplianceProfile = (typeof COMPLIANCE_PROFILES)[number];

/** Everything that decides what a rider pays and a driver keeps: what an operator changes with PUT /admin/pricing. */
export const PricingRules = Type.Object({
  fares: Type.Object(Object.fromEntries(RIDE_TYPES.map((type) => [type, Rate])) as Record<(typeof RIDE_TYPES)[number], typeof Rate>),
  surgeFloor: Type.Number({ minimum: 0.1, maximum: 5, default: 1, description: 'The smallest surge multiplier a quote may carry' }),
  surgeCap: Type.Number({ minimum: 1, maximum: 5, default: 2, description: 'The largest surge multiplier a quote may carry' }),
  driverShare: Type.Number({ minimum: 0, maximum: 1, default: 0.8, description: "The share of a fare that is the driver's (tolls and parking pass through whole)" }),
  tollsAndParking: Type.Object({
    capPerRide: Rupees('Tolls and parking a driver may add to one ride, passed through at cost'),
  }),
  cancellation: Type.Object({
    ACCEPTED: CancellationRule,
    PICKED: CancellationRule,
  }, { description: "The rider's fee for cancelling once a driver is on the way (ACCEPTED) or on board (PICKED); nothing while REQUESTED" }),
  driverCancellation: Type.Object({ ...CancellationRule.properties }, {
    description: "The driver's penalty for cancelling an accepted ride, a share of its fare; recorded against their earnings",
  }),
  validCancellationReasons: Type.Array(Type.String({ minLength: 1, maxLength: 80 }), {
    maxItems: 30,
    uniqueItems: true,
    description: "Cancellation reasons that waive the rider's fee and the driver's penalty",
  }),
  compliance: Type.Optional(Type.Enum(COMPLIANCE_PROFILES, { description: 'A compliance profile the version must keep to (saving one that breaks it is 400)' })),
});
export type PricingRules = Static<typeof PricingRules>;

export const PricingVersion = Type.Object({
  version: Type.Integer({ description: 'Rides store the version they were priced with' }),
  ...PricingRules.properties,
  createdAt: Timestamp,
  createdBy: Nullable(Type.Integer({ description: 'The operator who made it (null for the first one)' })),
});
export type PricingVersion = Static<typeof PricingVersion>;

/** A version as anyone may read it (GET /pricing/versions/{v}): the rules and when they were made, not by whom. */
export const PublicPricingVersion = Type.Object({
  version: PricingVersion.properties.version,
  ...PricingRules.properties,
  createdAt: Timestamp,
});
export type PublicPricingVersion = Static<typeof PublicPricingVersion>;

export const FareEstimate = Type.Object({
  distanceKm: Type.Number(),
  durationMinutes: Type.Integer(),
  rideType: Type.Enum(RIDE_TYPES),
  currency: Type.Literal('INR'),
  fare: Type.Integer({ description: 'What a booking of this trip is charged now' }),
  estimatedFare: Type.Integer(),
  fareMin: Type.Integer(),
  fareMax: Type.Integer(),
  baseFare: Type.Number(),
  distanceFare: Type.Number(),
  timeFare: Type.Number(),
  stops: Type.Integer({ minimum: 0, description: 'Stops on the way between pickup and drop (at most 3)' }),
  stopsFare: Type.Number({ description: "perStop × stops: in `fare`, outside surge and night" }),
  surgeMultiplier: Type.Number(),
  nightMultiplier: Type.Number({ description: "The night window's multiplier when the trip is expected to end inside it (its drop time: now plus the driving time), else 1" }),
  etaMinMinutes: Type.Integer({ description: 'Pickup wait, low end' }),
  etaMaxMinutes: Type.Integer({ description: 'Pickup wait, high end' }),
  routeProvider: Nullable(Type.String({ enum: ROUTE_PROVIDERS, description: 'Who measured the trip (ROUTING, or straight when it could not); null when the caller gave distanceKm' })),
  driverNearby: Type.Optional(
    Type.Boolean({
      description:
        'With a pickup point: true when an available driver who could take this ride type is within 8 km (the pickup wait is then that driver\'s way by road), false when none is (the wait is the city-wide forecast)',
    }),
  ),
});
export type FareEstimate = Static<typeof FareEstimate>;

export const CHARGE_KINDS = ['toll', 'parking'] as const;

/** A toll or parking fee the driver paid on the way (POST /rides/{id}/charges), passed through at cost. */
export const TripCharge = Type.Object({
  kind: Type.Enum(CHARGE_KINDS),
  amountInInr: Type.Integer({ minimum: 1, maximum: 100_000 }),
  note: Type.String({ maxLength: 200 }),
  addedAt: Timestamp,
});
export type TripCharge = Static<typeof TripCharge>;

/**
 * Every part of what a ride costs, and the inputs behind each, so anyone holding its pricing version
 * (GET /pricing/versions/{v}) can recompute it: fare = distanceAndTimeFare + stopsFare + waitingFare +
 * tollsFare + parkingFare, rounded to the rupee. Before completion it describes the upfront quote.
 */
export const FareBreakdown = Type.Object({
  pricingVersion: Type.Integer(),
  rideType: Type.Enum(RIDE_TYPES),
  distanceKm: Type.Number({ description: 'The distance charged (the upfront one unless recomputed)' }),
  durationMinutes: Type.Integer({ description: 'The driving minutes charged (the upfront ones unless recomputed)' }),
  baseFare: Type.Number(),
  baseKm: Type.Number(),
  distanceFare: Type.Number({ description: 'perKm × the kilometres beyond baseKm' }),
  timeFare: Type.Number({ description: 'perMinute × durationMinutes' }),
  minimumApplied: Type.Boolean({ description: 'The minimum fare replaced base + distance + time' }),
  surgeMultiplier: Type.Number(),
  night: Type.Boolean({ description: 'Dropped (or, upfront, expected to drop) inside the night window' }),
  nightMultiplier: Type.Number({ description: '1 outside the night window' }),
  distanceAndTimeFare: Type.Integer({ description: 'max(minimum, base + distance + time) × surge × night, to the rupee' }),
  stops: Type.Integer({ minimum: 0 }),
  stopsFare: Type.Number(),
  waitingMinutes: Type.Integer({ minimum: 0, description: 'Started minutes waited beyond the free ones, at the pickup and at each stop' }),
  stopWaitingMinutes: Type.Optional(Type.Integer({ minimum: 0, description: 'Of waitingMinutes, those waited at stops (from the driver\'s mark to leaving the stop); absent on rides completed before stops were marked' })),
  waitingFare: Type.Number(),
  charges: Type.Array(TripCharge),
  tollsFare: Type.Integer(),
  parkingFare: Type.Integer(),
  fare: Type.Integer({ description: 'What the rider pays' }),
  upfrontFare: Type.Integer({ description: 'The quote at booking' }),
  recomputed: Type.Boolean({ description: 'The distance-and-time part was recomputed: from the trip that happened, or from the route of a destination the rider changed to' }),
  recomputeReason: Nullable(Type.String({ description: 'Why it was recomputed (null when the upfront part held)' })),
  tripDistanceKm: Nullable(Type.Number({ description: "Along the driver's reported positions from pickup to drop (null before completion)" })),
  tripMinutes: Nullable(Type.Integer({ description: 'From pickup to drop (null before completion)' })),
});
export type FareBreakdown = Static<typeof FareBreakdown>;
