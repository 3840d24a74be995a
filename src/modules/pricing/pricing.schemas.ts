import { Type, type Static } from 'typebox';
import { Nullable, Timestamp } from '../../platform/schemas.ts';
import { ROUTE_PROVIDERS } from '../../platform/routing/router.ts';
import { RIDE_TYPES } from '../../platform/vocabulary.ts';

const Rupees = (description: string) => Type.Number({ minimum: 0, maximum: 100_000, description });

export const Rate = Type.Object({
  base: Rupees('Flag fare'),
  perKm: Rupees('Per kilometre of road distance'),
  perMinute: Rupees('Per minute of driving at city speed'),
  minimum: Rupees('The least a trip costs before surge'),
});
export type Rate = Static<typeof Rate>;

export const CancellationRule = Type.Object({
  share: Type.Number({ minimum: 0, maximum: 1, description: 'Share of the fare' }),
  min: Rupees('At least'),
  max: Rupees('At most'),
});
export type CancellationRule = Static<typeof CancellationRule>;

/** Everything that decides what a rider pays: what an operator changes with PUT /admin/pricing. */
export const PricingRules = Type.Object({
  fares: Type.Object(Object.fromEntries(RIDE_TYPES.map((type) => [type, Rate])) as Record<(typeof RIDE_TYPES)[number], typeof Rate>),
  surgeCap: Type.Number({ minimum: 1, maximum: 5, description: 'The largest surge multiplier a quote may carry' }),
  cancellation: Type.Object({
    ACCEPTED: CancellationRule,
    PICKED: CancellationRule,
  }, { description: "The rider's fee for cancelling once a driver is on the way (ACCEPTED) or on board (PICKED); nothing while REQUESTED" }),
});
export type PricingRules = Static<typeof PricingRules>;

export const PricingVersion = Type.Object({
  version: Type.Integer({ description: 'Rides store the version they were priced with' }),
  ...PricingRules.properties,
  createdAt: Timestamp,
  createdBy: Nullable(Type.Integer({ description: 'The operator who made it (null for the first one)' })),
});
export type PricingVersion = Static<typeof PricingVersion>;

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
  surgeMultiplier: Type.Number(),
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
