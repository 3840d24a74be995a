import { toIso, toIsoOrNull } from '../../platform/clock.ts';
import type { RideType } from '../../platform/vocabulary.ts';
import { livePosition, publicPositionVisible, type Viewer } from './ride-access.ts';
import type { DriverCard } from './ride-people.ts';
import type { RideRow } from './rides.repository.ts';
import { breakdownOf, chargesOf } from './trip-fares.ts';
import { toStopViews } from './ride-stops.ts';
import { toChangeViews } from './destination-change.ts';
import type { PublicRide, Ride, RideStatus, RideStatusView } from './rides.schemas.ts';

// The one place where ride rows become API objects, for each kind of caller.

/** A driver position as the drivers module reports it. */
export interface ShownPosition {
  lat: number;
  lon: number;
  updatedAt: number;
}

/** Which of the ride's two codes an answer carries. */
export type Codes = 'none' | 'start' | 'end' | 'both';

/** In reads of a ride, its rider sees both codes and nobody else sees any. */
export const codesFor = (viewer: Viewer): Codes => (viewer === 'rider' ? 'both' : 'none');

type StatusRow = Pick<RideRow, 'id' | 'status' | 'rider_id' | 'driver_id' | 'fare' | 'created_at' | 'accepted_at' | 'driver_lat' | 'driver_lon' | 'driver_location_updated_at'>;

/**
 * The driver's position as shown with a ride: live while the ride is under way (the drivers
 * module owns positions), the last one the ride recorded once it ended.
 */
function positionFields(row: StatusRow, live: ShownPosition | undefined, visible: boolean) {
  if (!visible) return { driverLat: null, driverLon: null, driverLocationUpdatedAt: null };
  if (livePosition(row.status)) {
    return live
      ? { driverLat: live.lat, driverLon: live.lon, driverLocationUpdatedAt: toIso(live.updatedAt) }
      : { driverLat: null, driverLon: null, driverLocationUpdatedAt: null };
  }
  return { driverLat: row.driver_lat, driverLon: row.driver_lon, driverLocationUpdatedAt: toIsoOrNull(row.driver_location_updated_at) };
}

function statusFields(row: StatusRow, position: ReturnType<typeof positionFields>): RideStatusView {
  return {
    id: row.id,
    status: row.status as RideStatus,
    riderId: row.rider_id,
    driverId: row.driver_id,
    fare: row.fare,
    createdAt: toIso(row.created_at),
    acceptedAt: toIsoOrNull(row.accepted_at),
    ...position,
  };
}

/** What anyone may follow of a ride by its id: no places, and the position only while it is public. */
export function toRideStatus(row: StatusRow, live: ShownPosition | undefined, riderSharesTrips: boolean): RideStatusView {
  return statusFields(row, positionFields(row, live, publicPositionVisible(row.status, riderSharesTrips)));
}

/** An open request as drivers browse them: places and fare, no codes, no e-mail. */
export function toPublicRide(row: RideRow, riderName?: string): PublicRide {
  return {
    ...statusFields(row, positionFields(row, undefined, false)),
    ...(riderName === undefined ? {} : { riderName }),
    ...tripFields(row),
  };
}

/**
 * The whole ride for its rider, its driver or an admin. Codes only where they are handed out: the
 * rider's own reads of the ride (an app that restarts must find them), the booking, and the
 * driver's accept (start code) and pickup (end code) answers as the spec says.
 */
export function toRide(row: RideRow, options: { riderName?: string; driver?: DriverCard; position?: ShownPosition; codes?: Codes } = {}): Ride {
  const codes = options.codes ?? 'none';
  return {
    ...statusFields(row, positionFields(row, options.position, true)),
    ...(options.riderName === undefined ? {} : { riderName: options.riderName }),
    ...tripFields(row),
    ...options.driver,
    paymentReference: row.payment_reference,
    pickedAt: toIsoOrNull(row.picked_at),
    completedAt: toIsoOrNull(row.completed_at),
    cancelledAt: toIsoOrNull(row.cancelled_at),
    cancellationReason: row.cancellation_reason,
    cancelledBy: row.cancelled_by,
    cancellationFee: row.cancellation_fee,
    refundedAmountInInr: row.refunded_amount,
    riderRating: row.rider_rating,
    riderFeedback: row.rider_feedback,
    driverRating: row.driver_rating,
    driverFeedback: row.driver_feedback,
    firstOfferAt: toIsoOrNull(row.first_offer_at),
    offerCount: row.offer_count ?? 0,
    pickupDistanceKm: row.pickup_distance_km,
    noDriverFoundAt: toIsoOrNull(row.no_driver_at),
    pricingVersion: row.pricing_version,
    upfrontFare: row.upfront_fare,
    fareBreakdown: breakdownOf(row),
    charges: chargesOf(row),
    destinationChanges: toChangeViews(row),
    driverPenalty: row.driver_penalty,
    arrivedAt: toIsoOrNull(row.arrived_at),
    ...(codes === 'start' || codes === 'both' ? { startOtp: row.start_otp } : {}),
    ...(codes === 'end' || codes === 'both' ? { endOtp: row.end_otp } : {}),
  };
}

function tripFields(row: RideRow) {
  return {
    rideType: row.ride_type as RideType,
    pickupLocation: row.pickup_location,
    dropLocation: row.drop_location,
    pickupLat: row.pickup_lat,
    pickupLon: row.pickup_lon,
    dropLat: row.drop_lat,
    dropLon: row.drop_lon,
    pickupPlusCode: row.pickup_plus_code,
    dropPlusCode: row.drop_plus_code,
    pickupLandmark: row.pickup_landmark,
    dropLandmark: row.drop_landmark,
    stops: toStopViews(row),
    distanceKm: row.distance_km,
    durationMinutes: row.duration_minutes,
    surgeMultiplier: row.surge_multiplier,
    paymentMode: row.payment_mode,
    paymentStatus: row.payment_status,
    scheduledAt: toIsoOrNull(row.scheduled_at),
  };
}
