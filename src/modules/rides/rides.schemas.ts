import { Type, type Static } from 'typebox';
import { PageQuery } from '../../platform/pagination.ts';
import { Latitude, Longitude, Nullable, OptionalText, OptionalTimestamp, Timestamp } from '../../platform/schemas.ts';
import { PAYMENT_MODES, RIDE_TYPES } from '../../platform/vocabulary.ts';
import { CHARGE_KINDS, FareBreakdown, TripCharge } from '../pricing/pricing.schemas.ts';
import { BookingStops, EstimateStops, RideStop } from './ride-stops.schemas.ts';
import { DestinationChange } from './destination-change.schemas.ts';

export const RIDE_STATUSES = ['REQUESTED', 'ACCEPTED', 'PICKED', 'COMPLETED', 'CANCELLED'] as const;
export type RideStatus = (typeof RIDE_STATUSES)[number];
/** A rider holds a ride in these states; a driver is busy with one in the last two. */
export const OPEN_STATUSES = ['REQUESTED', 'ACCEPTED', 'PICKED'] as const satisfies readonly RideStatus[];
export const ACTIVE_STATUSES = ['ACCEPTED', 'PICKED'] as const satisfies readonly RideStatus[];
export const CANCELLED_BY = ['rider', 'driver', 'admin'] as const;
export type CancelledBy = (typeof CANCELLED_BY)[number];
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
  paymentMode: Type.Optional(Type.String({ maxLength: 20, description: `One of ${PAYMENT_MODES.join(', ')} in any case; defaults to your settings' payment method` })),
  rideType: Type.Optional(Type.String({ maxLength: 10, description: `One of ${RIDE_TYPES.join(', ')}; default mini` })),
  stops: BookingStops,
  scheduledAt: Type.Optional({
    ...Timestamp,
    description: 'Book ahead: the pickup time, SCHEDULE_MIN_LEAD_MINUTES to SCHEDULE_MAX_DAYS from now. The fare is quoted for that time without surge and held; the ride waits out of dispatch until SCHEDULE_DISPATCH_LEAD_MINUTES before it',
  }),
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

/** What cancelling a ride now would cost the caller, so an app can say it before the rider confirms. */
export const CancellationQuote = Type.Object({
  rideId: Type.Integer(),
  status: Type.Enum(RIDE_STATUSES),
  cancelledBy: Type.Enum(CANCELLED_BY),
  cancellationFee: Nullable(Type.Integer({ description: 'INR; null when no fee applies' })),
});
export type CancellationQuote = Static<typeof CancellationQuote>;

export const FeedbackBody = Type.Object({
  rating: Type.Integer({ minimum: 1, maximum: 5 }),
  comment: OptionalText(COMMENT_MAX),
});

export const LocationBody = Type.Object({ lat: Latitude, lon: Longitude });

export const PaymentModeBody = Type.Object({
  paymentMode: Type.String({ maxLength: 20, description: `One of ${PAYMENT_MODES.join(', ')}; once the ride has ended, only CASH` }),
});

export const ListQuery = PageQuery;

export const NearbyQuery = Type.Object({
  lat: Latitude,
  lon: Longitude,
  radiusKm: Type.Number({ exclusiveMinimum: 0, maximum: 50, default: 5 }),
  limit: Type.Integer({ minimum: 1, maximum: 100, default: 10 }),
});

export const EstimateQuery = Type.Object({
  distanceKm: Type.Optional(Type.Number({ exclusiveMinimum: 0, maximum: 2000, description: 'Required unless all four coordinates are given' })),
  rideType: Type.Optional(Type.String({ maxLength: 10 })),
  pickupLat: Type.Optional(Latitude),
  pickupLon: Type.Optional(Longitude),
  dropLat: Type.Optional(Latitude),
  dropLon: Type.Optional(Longitude),
  stops: EstimateStops,
});
export type EstimateQuery = Static<typeof EstimateQuery>;


const text = Nullable(Type.String());
const number = Nullable(Type.Number());
const integer = Nullable(Type.Integer());

// What anyone may follow of a ride by its id (spec 4.2): its state and its driver's position, not
// where the rider goes. The position shows only while the driver is on the way (decisions.md).
const statusFields = {
  id: Type.Integer(),
  status: Type.Enum(RIDE_STATUSES),
  riderId: Type.Integer(),
  driverId: integer,
  fare: Type.Integer(),
  createdAt: Timestamp,
  acceptedAt: OptionalTimestamp,
  driverLat: number,
  driverLon: number,
  driverLocationUpdatedAt: OptionalTimestamp,
};

// Where the ride goes and what it costs: open requests show these to drivers.
const tripFields = {
  riderName: Type.Optional(Type.String()),
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
  stops: Type.Array(RideStop, { description: 'The stops between pickup and drop, in order' }),
  distanceKm: Type.Number(),
  durationMinutes: Type.Integer(),
  surgeMultiplier: Type.Number(),
  paymentMode: Type.String(),
  paymentStatus: text,
  scheduledAt: { ...OptionalTimestamp, description: 'A ride booked ahead: the pickup time the rider chose; null for a ride booked for now' },
};

// What only the ride's rider and driver (and admins) see.
const participantFields = {
  paymentReference: text,
  pickedAt: OptionalTimestamp,
  completedAt: OptionalTimestamp,
  cancelledAt: OptionalTimestamp,
  cancellationReason: text,
  cancelledBy: Nullable(Type.String({ enum: CANCELLED_BY })),
  cancellationFee: integer,
  refundedAmountInInr: Type.Integer({ description: 'Rupees refunded to the rider through the payment provider, or on their way (docs/payments.md)' }),
  riderRating: integer,
  riderFeedback: text,
  driverRating: integer,
  driverFeedback: text,
  firstOfferAt: Type.Optional(OptionalTimestamp),
  offerCount: Type.Optional(Type.Integer({ description: 'How many drivers the ride was offered to' })),
  pickupDistanceKm: Type.Optional(Nullable(Type.Number({ description: "How far the driver was from the pickup point when they accepted, in a straight line" }))),
  noDriverFoundAt: Type.Optional(OptionalTimestamp),
  pricingVersion: Type.Optional(Type.Integer({ description: 'The pricing rules the fare was computed with' })),
  upfrontFare: Type.Optional(Nullable(Type.Integer({ description: 'At completion: the quote at booking (`fare` is then what the rider pays); null before' }))),
  fareBreakdown: Type.Optional(Type.Union([FareBreakdown, Type.Null()], { description: "At completion: every part of the fare and whether and why it was recomputed from the trip; null before" })),
  arrivedAt: Type.Optional({ ...OptionalTimestamp, description: "When the driver first reported a position within 100 m of the pickup (waiting is measured from it); null before" }),
  driverPenalty: Type.Optional(Nullable(Type.Integer({ description: "INR the driver owes for cancelling without a valid reason (their earnings carry it); null when none" }))),
  charges: Type.Optional(Type.Array(TripCharge, { description: 'Tolls and parking the driver added while PICKED, passed through at cost' })),
  destinationChanges: Type.Optional(Type.Array(DestinationChange, { description: 'Destination changes the rider confirmed, oldest first; the drop fields are the last one\'s' })),
  driverName: Type.Optional(Type.String({ description: "Who is coming, once a driver accepted: the driver's name" })),
  vehicleType: Type.Optional(Nullable(Type.String({ enum: RIDE_TYPES, description: "The driver's vehicle type (null for a driver without a vehicle profile)" }))),
  vehicleModel: Type.Optional(text),
  vehicleNumber: Type.Optional(Nullable(Type.String({ description: "The vehicle's plate, for the rider to check before getting in" }))),
  startOtp: Type.Optional(Type.String({ description: "The rider's code for the pickup; only the rider sees it (and the driver in the accept answer)" })),
  endOtp: Type.Optional(Type.String({ description: "The rider's code for the drop-off; only the rider sees it (and the driver in the pickup answer)" })),
};

/** The public view of a ride by id. */
export const RideStatusView = Type.Object(statusFields);
export type RideStatusView = Static<typeof RideStatusView>;

/** An open request as drivers browse them: no codes, no e-mail. */
export const PublicRide = Type.Object({ ...statusFields, ...tripFields });
export type PublicRide = Static<typeof PublicRide>;

/** What the ride's rider (codes included), its driver (no codes) and admins see. */
export const Ride = Type.Object({ ...statusFields, ...tripFields, ...participantFields });
export type Ride = Static<typeof Ride>;

/** GET /rides/status/{id}: the public subset, or the whole ride in the caller's view when the caller takes part. */
export const RideStatusResponse = Type.Object(
  { ...statusFields, ...Type.Partial(Type.Object({ ...tripFields, ...participantFields })).properties },
  { description: "Anyone gets the public fields; the ride's rider (with both codes) and driver (without) get the whole ride" },
);
export type RideStatusResponse = Static<typeof RideStatusResponse>;

/** The answer to a position report. */
export const LocationResponse = Type.Object({
  id: Type.Integer(),
  status: Type.Enum(RIDE_STATUSES),
  riderId: Type.Integer(),
  driverId: Type.Integer(),
  driverLat: Type.Number(),
  driverLon: Type.Number(),
  driverLocationUpdatedAt: Timestamp,
});
export type LocationResponse = Static<typeof LocationResponse>;

/** POST /rides/{id}/charges: a toll or parking fee the driver paid, while PICKED. */
export const ChargeBody = Type.Object({
  kind: Type.Enum(CHARGE_KINDS),
  amountInInr: Type.Integer({ minimum: 1, maximum: 100_000 }),
  note: OptionalText(200),
});
export type ChargeBody = Static<typeof ChargeBody>;
