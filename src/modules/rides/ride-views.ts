import { toIso, toIsoOrNull } from '../../platform/clock.ts';
import type { DriverPosition } from '../../platform/geo/driver-index.ts';
import type { RideType } from './pricing.ts';
import type { RideRow, RideSnapshot } from './rides.repository.ts';
import type { PublicRide, Ride, RideStatus, RideStatusView } from './rides.schemas.ts';

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
    cancelledBy: row.cancelled_by,
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
export function toRideStatus(row: RideSnapshot, position: DriverPosition | undefined): RideStatusView {
  const live =
    position !== undefined &&
    (row.status === 'ACCEPTED' || row.status === 'PICKED') &&
    position.driverId === row.driver_id &&
    (row.driver_location_updated_at === null || row.driver_location_updated_at <= position.updatedAt);
  const updatedAt = live ? position.updatedAt : row.driver_location_updated_at;
  return {
    id: row.id,
    status: row.status as RideStatus,
    riderId: row.rider_id,
    driverId: row.driver_id,
    fare: row.fare,
    createdAt: toIso(row.created_at),
    acceptedAt: toIsoOrNull(row.accepted_at),
    driverLat: live ? position.lat : row.driver_lat,
    driverLon: live ? position.lon : row.driver_lon,
    driverLocationUpdatedAt: toIsoOrNull(updatedAt),
  };
}
