import { Type, type Static, type TProperties } from 'typebox';
import { PageQuery } from '../../platform/pagination.ts';
import { IdFilter, Nullable, OptionalTimestamp, Timestamp } from '../../platform/schemas.ts';
import { RIDE_TYPES, type RideType } from '../../platform/vocabulary.ts';
import { COMPLAINANT_PARTIES, COMPLAINT_CATEGORIES } from '../complaints/complaints.schemas.ts';
import { OFFER_STATUSES } from '../dispatch/offers.schemas.ts';
import { DriverProfile } from '../drivers/drivers.schemas.ts';
import { REFUND_REASONS, REFUND_STATUSES, SESSION_STATUSES } from '../payments/payments.schemas.ts';
import { PricingRules, PricingVersion } from '../pricing/pricing.schemas.ts';
import { CANCELLED_BY, Ride, RIDE_STATUSES, type RideStatus } from '../rides/rides.schemas.ts';

// What the operator API answers about the service's day, rides, drivers and prices.

const Count = Type.Integer({ minimum: 0 });
const Reason = (description: string) => Type.String({ minLength: 1, maxLength: 600, pattern: '\\S', description });

export const Overview = Type.Object({
  generatedAt: Timestamp,
  timeZone: Type.String({ description: 'SERVICE_TIMEZONE: where "today" begins at midnight' }),
  todayStartedAt: Timestamp,
  ridesToday: Type.Object(Object.fromEntries(RIDE_STATUSES.map((status) => [status, Count])) as Record<RideStatus, typeof Count>, {
    description: 'Rides booked today, by the status each is in now',
  }),
  openRequests: Type.Integer({ minimum: 0, description: 'Rides waiting for a driver now, whenever booked' }),
  bookedAhead: Type.Object({
    waiting: Count,
    taken: Count,
  }, { description: 'Rides booked ahead still waiting for their time (not yet in dispatch), and how many of them a driver took ahead' }),
  cancellationRate: Nullable(Type.Number({ minimum: 0, maximum: 1, description: "Share of today's rides that were cancelled; null before the first booking" })),
  completedFaresInr: Type.Integer({ minimum: 0, description: "Fares of today's rides that are completed" }),
  payments: Type.Object({
    received: Count,
    amountInInr: Type.Number({ minimum: 0 }),
  }, { description: 'Online payments completed today' }),
  drivers: Type.Object({
    online: Type.Integer({ minimum: 0, description: 'A position within the last two minutes' }),
    available: Type.Integer({ minimum: 0, description: 'Online, cleared for offers, on no ride and holding no offer' }),
    availableByVehicle: Type.Object(Object.fromEntries(RIDE_TYPES.map((type) => [type, Count])) as Record<RideType, typeof Count>, {
      description: 'The available drivers by their vehicle type: a bike rider waits however many SUVs are free',
    }),
    busy: Type.Integer({ minimum: 0, description: 'On an ACCEPTED or PICKED ride' }),
  }),
  simulationSpeed: Type.Number({ minimum: 1, description: 'SIMULATION_SPEED: 1, or in a simulated city how many times faster than the wall clock it runs; the last hour and its waits are in its time' }),
  incidents: Type.Object({
    open: Type.Integer({ minimum: 0, description: 'SOS incidents no operator has acknowledged yet' }),
    acknowledged: Type.Integer({ minimum: 0, description: 'Acknowledged, not resolved' }),
    acknowledgedToday: Count,
    meanAcknowledgeSeconds: Nullable(Type.Number({ description: 'From the SOS to an operator acknowledging it, over the incidents acknowledged today; null before the first' })),
  }, { description: 'SOS incidents (docs/safety.md); the distribution of the time to acknowledge is in /metrics' }),
  lastHour: Type.Object({
    acceptedRides: Count,
    meanAcceptDelaySeconds: Nullable(Type.Number({ description: 'From booking to acceptance, over the rides accepted in the last hour' })),
    pickedUpRides: Count,
    meanPickupMinutes: Nullable(Type.Number({ description: 'From acceptance to pickup (the pickup ETA as it came true), over the rides picked up in the last hour' })),
  }),
});
export type Overview = Static<typeof Overview>;

export const AdminRidesQuery = Type.Object({
  status: Type.Optional(Type.Enum(RIDE_STATUSES)),
  riderId: Type.Optional(IdFilter),
  driverId: Type.Optional(IdFilter),
  from: Type.Optional(Type.String({ format: 'date-time', description: 'Booked at or after' })),
  to: Type.Optional(Type.String({ format: 'date-time', description: 'Booked before' })),
  ...PageQuery.properties,
});
export type AdminRidesQuery = Static<typeof AdminRidesQuery>;

const event = <E extends string, P extends TProperties>(name: E, description: string, properties: P) =>
  Type.Object({ at: Timestamp, event: Type.Literal(name), ...properties }, { description });

/** The operator who took a step for the ride's rider or driver (from the audit trail); null when they took it themselves. */
const RequestedBy = Nullable(Type.Integer({ description: 'The operator who took this step for the rider or driver; null when they did' }));

/** One thing that happened to a ride; a ride's timeline lists them by time. */
export const TimelineEntry = Type.Union([
  event('booked', 'The rider booked the ride', { riderId: Type.Integer(), rideType: Type.Enum(RIDE_TYPES), fare: Type.Integer(), pricingVersion: Type.Integer() }),
  event('offered', 'Dispatch offered the ride to a driver', {
    offerId: Type.Integer(),
    driverId: Type.Integer(),
    outcome: Type.Enum(OFFER_STATUSES),
    answeredAt: OptionalTimestamp,
    pickupDistanceKm: Type.Number(),
    declineReason: Nullable(Type.String()),
  }),
  event('no_driver_found', 'The rider was told no driver was found; the ride stayed open', {}),
  event('accepted', 'A driver accepted the ride', { driverId: Type.Integer(), pickupDistanceKm: Nullable(Type.Number()), requestedBy: RequestedBy }),
  event('picked_up', 'The driver picked the rider up', { requestedBy: RequestedBy }),
  event('positions', "The driver's last position recorded with the ride", { lat: Type.Number(), lon: Type.Number() }),
  event('completed', 'The ride was completed', { fare: Type.Integer(), paymentMode: Type.String(), requestedBy: RequestedBy }),
  event('cancelled', 'The ride was cancelled', { by: Type.Enum(CANCELLED_BY), reason: Nullable(Type.String()), fee: Nullable(Type.Integer()), requestedBy: RequestedBy }),
  event('payment', 'An online payment of the ride: when it was paid or failed, or when its order was made while pending', {
    sessionId: Type.String(),
    amountInInr: Type.Number(),
    status: Type.Enum(SESSION_STATUSES),
    paymentId: Nullable(Type.String()),
    paymentMode: Nullable(Type.String()),
  }),
  event('refund', 'A refund of a payment of the ride, with its status now', {
    refundId: Type.Integer(),
    amountInInr: Type.Number(),
    status: Type.Enum(REFUND_STATUSES),
    reason: Type.Enum(REFUND_REASONS),
    requestedBy: Nullable(Type.Integer()),
  }),
  event('complaint', 'A party complained about the ride', {
    complaintId: Type.Integer(),
    filedBy: Type.Integer(),
    party: Type.Enum(COMPLAINANT_PARTIES),
    category: Type.Enum(COMPLAINT_CATEGORIES),
  }),
  event('complaint_resolved', 'An operator resolved a complaint', { complaintId: Type.Integer(), resolvedBy: Type.Integer() }),
]);
export type TimelineEntry = Static<typeof TimelineEntry>;

export const AdminRide = Type.Object({
  ...Ride.properties,
  driverName: Nullable(Type.String()),
  timeline: Type.Array(TimelineEntry, { description: 'Everything that happened to the ride, oldest first' }),
});
export type AdminRide = Static<typeof AdminRide>;

export const AdminCancelBody = Type.Object({ reason: Reason('Why; the rider and the driver read it') });
export const RejectBody = Type.Object({ reason: Reason('Why; the driver reads it') });

export const DriverIdParams = Type.Object({ driverId: Type.Integer({ minimum: 1 }) });

export const AdminDriver = Type.Object({ ...DriverProfile.properties, name: Type.String(), email: Type.String() });
export type AdminDriver = Static<typeof AdminDriver>;

export const PricingHistory = Type.Object({
  current: PricingVersion,
  versions: Type.Array(PricingVersion, { description: 'Every version, newest first: rides keep the one they were priced with' }),
});
export type PricingHistory = Static<typeof PricingHistory>;

export const SavePricingBody = Type.Object({
  ...PricingRules.properties,
  whatIfId: Type.Optional(Type.String({
    format: 'uuid',
    description: "A finished what-if replay (POST /admin/what-if on this instance) the version rests on: its id, period and figures are kept in the version's audit entry",
  })),
});
export type SavePricingBody = Static<typeof SavePricingBody>;
