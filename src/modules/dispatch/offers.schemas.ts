import { Type, type Static } from 'typebox';
import { Nullable, OptionalText, Timestamp } from '../../platform/schemas.ts';
import { RIDE_TYPES } from '../../platform/vocabulary.ts';
import { PublicRide, Ride } from '../rides/rides.schemas.ts';

export const OFFER_STATUSES = ['pending', 'accepted', 'declined', 'expired', 'withdrawn'] as const;
export type OfferStatus = (typeof OFFER_STATUSES)[number];

/** A ride offered to one driver, with what they need to decide before it expires. */
export const Offer = Type.Object({
  offerId: Type.Integer(),
  rideId: Type.Integer(),
  rideType: Type.Enum(RIDE_TYPES),
  fare: Type.Integer(),
  pickupLocation: Nullable(Type.String()),
  dropLocation: Nullable(Type.String()),
  pickupLat: Type.Number(),
  pickupLon: Type.Number(),
  dropLat: Nullable(Type.Number()),
  dropLon: Nullable(Type.Number()),
  pickupDistanceKm: Type.Number({ description: 'By road (estimated, as the rider\'s app shows it) from where you were when the offer was made' }),
  pickupEtaMinutes: Type.Integer(),
  expiresAt: Timestamp,
  status: Type.Enum(OFFER_STATUSES),
});
export type Offer = Static<typeof Offer>;

export const OfferIdParams = Type.Object({ offerId: Type.Integer({ minimum: 1 }) });

// The body may be left out entirely; Fastify validates a missing body as null.
export const DeclineBody = Type.Union([Type.Object({ reason: OptionalText(200) }), Type.Null()]);

/** GET /drivers/me/upcoming: rides booked ahead the driver could take, and those they took. */
export const UpcomingRides = Type.Object({
  open: Type.Array(PublicRide, { description: 'Rides booked ahead no driver took yet that your vehicle serves, picking up within the widest radius dispatch searches from where you are (none while you are offline), soonest first' }),
  taken: Type.Array(Ride, { description: 'Rides booked ahead you took: REQUESTED until 15 minutes before their time, then ACCEPTED if you are online' }),
});
export type UpcomingRides = Static<typeof UpcomingRides>;

export const UpcomingRideParams = Type.Object({ rideId: Type.Integer({ minimum: 1 }) });
