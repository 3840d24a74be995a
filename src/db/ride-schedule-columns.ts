/**
 * The columns of `rides` for a ride booked ahead (migration 2026-11-29-11, rides/ride-schedule*.ts):
 * when the rider wants to be picked up, and when the ride entered dispatch, its lead time before
 * (null while it waits; always null for a ride booked for now). Owned by rides.
 */
export interface RideScheduleColumns {
  scheduled_at: number | null;
  released_at: number | null;
}
