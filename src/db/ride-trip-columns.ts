import type { Generated } from 'kysely';

/**
 * The columns of `rides` that keep the trip that happened (migration 2026-11-28-12, rides/trip-*.ts):
 * the arrival within 100 m of the pickup, the running distance along the driver's positions and the
 * last point counted, the tolls and parking added (their total and a JSON list), and at completion the
 * upfront quote and the fare's parts (JSON); a driver's cancellation penalty. Owned by rides.
 */
export interface RideTripColumns {
  arrived_at: number | null;
  trip_distance_km: Generated<number>;
  trip_last_lat: number | null;
  trip_last_lon: number | null;
  charges_total: Generated<number>;
  trip_charges: Generated<string>;
  upfront_fare: number | null;
  fare_breakdown: string | null;
  driver_penalty: number | null;
  /** The stops between pickup and drop, in order (JSON, migration 2026-11-29-21): rides/ride-stops.ts reads and writes them. */
  stops: Generated<string>;
  /** The destination changes the rider confirmed, in order (JSON, migration 2026-11-29-22): rides/destination-change*.ts. */
  destination_changes: Generated<string>;
}

/** A destination change quoted to a ride's rider; confirmed at most once, before it expires. Owned by rides. */
export interface DestinationQuotesTable {
  id: string;
  ride_id: number;
  rider_id: number;
  drop_lat: number;
  drop_lon: number;
  drop_location: string | null;
  distance_km: number;
  duration_minutes: number;
  fare: number;
  changes_before: number;
  created_at: number;
  expires_at: number;
  confirmed_at: number | null;
}

/** The rides module's tables beside `rides`: database.ts's Database extends it. */
export interface RideTables {
  destination_quotes: DestinationQuotesTable;
}
