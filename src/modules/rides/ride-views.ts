import { toIso, toIsoOrNull } from '../../platform/clock.ts';
import type { DriverPosition } from '../../platform/geo/driver-index.ts';
import type { RideType } from './pricing.ts';
import type { RideRow } from './rides.repository.ts';
import type { PublicRide, Ride, RideStatus } from './rides.schemas.ts';

// The one place where ride rows become API objects.

export function toPublicRide(row: RideRow, riderName?: string): PublicRide {
  return {
    id: row.id,
    status: row.status as RideStatus,
    riderId: row.rider_id,
    ...(riderName === undefined ? {} : { riderName }),
    driverId: row.driver_id,
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
    distanceKm: row.distance_km,
    durationMinutes: row.duration_minutes,
    fare: row.fare,
    surgeMultiplier: row.surge_multiplier,
    paymentMode: row.payment_mode,
    paymentStatus: row.payment_status,
    createdAt: toIso(row.created_at),
    acceptedAt: toIsoOrNull(row.accepted_at),
    driverLat: row.driver_lat,
    driverLon: row.driver_lon,
    driverLocationUpdatedAt: toIsoOrNull(row.driver_location_updated_at),
  };
}

/** The participants' view. OTPs are added only where the spec hands them out. */
export function toRide(row: RideRow, options: { riderName?: string; otps?: 'start' | 'end' | 'both' } = {}): Ride {
  return {
    ...toPublicRide(row, options.riderName),
    paymentReference: row.payment_reference,
    pickedAt: toIsoOrNull(row.picked_at),
    completedAt: toIsoOrNull(row.completed_at),
    cancelledAt: toIsoOrNull(row.cancelled_at),
    cancellationReason: row.cancellation_reason,
    cancelledBy: row.cancelled_by as Ride['cancelledBy'],
    cancellationFee: row.cancellation_fee,
    riderRating: row.rider_rating,
    riderFeedback: row.rider_feedback,
    driverRating: row.driver_rating,
    driverFeedback: row.driver_feedback,
    ...(options.otps === 'start' || options.otps === 'both' ? { startOtp: row.start_otp } : {}),
    ...(options.otps === 'end' || options.otps === 'both' ? { endOtp: row.end_otp } : {}),
  };
}

/** A ride in progress shows its driver's newest position, even before the batch reaches the row. */
export function withDriverPosition(row: RideRow, position: DriverPosition | undefined): RideRow {
  if (!position || (row.status !== 'ACCEPTED' && row.status !== 'PICKED') || position.driverId !== row.driver_id) return row;
  if (row.driver_location_updated_at !== null && row.driver_location_updated_at > position.updatedAt) return row;
  return { ...row, driver_lat: position.lat, driver_lon: position.lon, driver_location_updated_at: position.updatedAt };
}
