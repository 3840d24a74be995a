import { Type, type Static } from 'typebox';
import { PageQuery } from '../../platform/pagination.ts';
import { Latitude, Longitude, Nullable, OptionalText, OptionalTimestamp, Timestamp } from '../../platform/schemas.ts';
import { RIDE_TYPES } from './pricing.ts';

export const RIDE_STATUSES = ['REQUESTED', 'ACCEPTED', 'PICKED', 'COMPLETED', 'CANCELLED'] as const;
export type RideStatus = (typeof RIDE_STATUSES)[number];
export const PAYMENT_MODES = ['CASH', 'UPI', 'CARD', 'WALLET'] as const;
export type PaymentMode = (typeof PAYMENT_MODES)[number];
export const RATING_MESSAGE = 'Rating must be a number between 1 and 5.';

const LOCATION_MAX = 200;
const LANDMARK_MAX = 600;
const COMMENT_MAX = 600;

const OptionalCoordinate = (schema: typeof Latitude) => Type.Optional(Type.Union([schema, Type.Null()]));

export const RideIdParams = Type.Object({ rideId: Type.Integer({ minimum: 1 }) });

export const BookBody = Type.Object({
  pickupLocation: OptionalText(LOCATION_MAX),
  dropLocation: OptionalText(LOCATION_MAX),
  pickupLandmark: OptionalText(LANDMARK_MAX),
  dropLandmark: OptionalText(LANDMARK_MAX),
  pickupLat: OptionalCoordinate(Latitude),
  pickupLon: OptionalCoordinate(Longitude),
  dropLat: OptionalCoordinate(Latitude),
  dropLon: OptionalCoordinate(Longitude),
  pickupPlusCode: OptionalText(20),
  dropPlusCode: OptionalText(20),
  paymentMode: Type.Optional(Type.String({ maxLength: 20, description: `One of ${PAYMENT_MODES.join(', ')} in any case; defaults to your settings' payment method` })),
  rideType: Type.Optional(Type.String({ maxLength: 10, description: `One of ${RIDE_TYPES.join(', ')}; default mini` })),
});
export type BookBody = Static<typeof BookBody>;

export const StatusBody = Type.Object({
  status: Type.Enum(['ACCEPTED', 'PICKED', 'COMPLETED', 'CANCELLED']),
  driverId: Type.Optional(Type.Union([Type.String({ pattern: '^[1-9][0-9]{0,14}$' }), Type.Integer({ minimum: 1 })], {
    description: 'Required for ACCEPTED: the accepting driver (your own id unless you are ADMIN)',
  })),
  otp: Type.Optional(Type.String({ maxLength: 10, description: 'startOtp for PICKED, endOtp for COMPLETED' })),
});
export type StatusBody = Static<typeof StatusBody>;

// The body may be left out entirely; Fastify validates a missing body as null.
export const CancelBody = Type.Union([Type.Object({ reason: OptionalText(COMMENT_MAX) }), Type.Null()]);

export const FeedbackBody = Type.Object({
  rating: Type.Integer({ minimum: 1, maximum: 5 }),
  comment: OptionalText(COMMENT_MAX),
});

export const LocationBody = Type.Object({ lat: Latitude, lon: Longitude });

export const ListQuery = PageQuery;

export const NearbyQuery = Type.Object({
  lat: Latitude,
  lon: Longitude,
  radiusKm: Type.Number({ exclusiveMinimum: 0, maximum: 50, default: 5 }),
  limit: Type.Integer({ minimum: 1, maximum: 100, default: 10 }),
});

export const NearbyDriver = Type.Object({
  driverId: Type.Integer(),
  lat: Type.Number(),
  lon: Type.Number(),
  distanceKm: Type.Number(),
});

export const EstimateQuery = Type.Object({
  distanceKm: Type.Optional(Type.Number({ exclusiveMinimum: 0, maximum: 2000, description: 'Required unless all four coordinates are given' })),
  rideType: Type.Optional(Type.String({ maxLength: 10 })),
  pickupLat: Type.Optional(Latitude),
  pickupLon: Type.Optional(Longitude),
  dropLat: Type.Optional(Latitude),
  dropLon: Type.Optional(Longitude),
});
export type EstimateQuery = Static<typeof EstimateQuery>;

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
});

const text = Nullable(Type.String());
const number = Nullable(Type.Number());
const integer = Nullable(Type.Integer());

// Fields anyone may see about a ride: no codes, no e-mail, no feedback.
const publicFields = {
  id: Type.Integer(),
  status: Type.Enum(RIDE_STATUSES),
  riderId: Type.Integer(),
  riderName: Type.Optional(Type.String()),
  driverId: integer,
  rideType: Type.Enum(RIDE_TYPES),
  pickupLocation: text,
  dropLocation: text,
  pickupLat: number,
  pickupLon: number,
  dropLat: number,
  dropLon: number,
  pickupPlusCode: text,
  dropPlusCode: text,
  pickupLandmark: text,
  dropLandmark: text,
  distanceKm: Type.Number(),
  durationMinutes: Type.Integer(),
  fare: Type.Integer(),
  surgeMultiplier: Type.Number(),
  paymentMode: Type.String(),
  paymentStatus: text,
  createdAt: Timestamp,
  acceptedAt: OptionalTimestamp,
  driverLat: number,
  driverLon: number,
  driverLocationUpdatedAt: OptionalTimestamp,
};

/** An open request as drivers browse them: no codes, no e-mail. */
export const PublicRide = Type.Object(publicFields);
export type PublicRide = Static<typeof PublicRide>;

/** What anyone may follow of a ride by its id (spec 4.2): its state and its driver's position, not where the rider goes. */
export const RideStatusView = Type.Object({
  id: publicFields.id,
  status: publicFields.status,
  riderId: publicFields.riderId,
  driverId: publicFields.driverId,
  fare: publicFields.fare,
  createdAt: publicFields.createdAt,
  acceptedAt: publicFields.acceptedAt,
  driverLat: publicFields.driverLat,
  driverLon: publicFields.driverLon,
  driverLocationUpdatedAt: publicFields.driverLocationUpdatedAt,
});
export type RideStatusView = Static<typeof RideStatusView>;

/** What the ride's rider, its driver and admins see; the OTPs only in the responses the spec names. */
export const Ride = Type.Object({
  ...publicFields,
  paymentReference: text,
  pickedAt: OptionalTimestamp,
  completedAt: OptionalTimestamp,
  cancelledAt: OptionalTimestamp,
  cancellationReason: text,
  cancelledBy: Nullable(Type.String({ enum: ['rider', 'driver', 'admin'] })),
  cancellationFee: integer,
  riderRating: integer,
  riderFeedback: text,
  driverRating: integer,
  driverFeedback: text,
  startOtp: Type.Optional(Type.String()),
  endOtp: Type.Optional(Type.String()),
});
export type Ride = Static<typeof Ride>;
