import type { Db } from '../../db/database.ts';
import type { EarningRow } from './earnings.ts';

/** A driver's rides completed in [start, end), newest first (index rides_driver_completed). */
export function completedBy(db: Db, driverId: number, start: number, end: number): Promise<EarningRow[]> {
  return db
    .selectFrom('rides')
    .select(['id', 'status', 'ride_type', 'distance_km', 'duration_minutes', 'surge_multiplier', 'fare', 'pricing_version', 'pickup_zone', 'created_at', 'picked_at', 'completed_at', 'cancelled_at', 'cancelled_by', 'cancellation_fee', 'fare_breakdown'])
    .where('driver_id', '=', driverId)
    .where('completed_at', '>=', start)
    .where('completed_at', '<', end)
    .orderBy('completed_at', 'desc')
    .execute() as Promise<EarningRow[]>;
}

/** Penalties charged to a driver for cancelling without a valid reason, in [start, end), newest first. */
export function penaltiesOf(db: Db, driverId: number, start: number, end: number): Promise<Array<{ id: number; cancelled_at: number; driver_penalty: number }>> {
  return db
    .selectFrom('rides')
    .select(['id', 'cancelled_at', 'driver_penalty'])
    .where('driver_id', '=', driverId)
    .where('cancelled_at', '>=', start)
    .where('cancelled_at', '<', end)
    .where('driver_penalty', '>', 0)
    .orderBy('cancelled_at', 'desc')
    .execute() as Promise<Array<{ id: number; cancelled_at: number; driver_penalty: number }>>;
}
