import type { Generated } from 'kysely';

/**
 * The columns of `rides` for a ride booked ahead (migrations 2026-11-29-11 and -12,
 * rides/ride-schedule*.ts): when the rider wants to be picked up, when the ride left its wait (into
 * dispatch at its lead time, or to the driver who took it ahead; null while it waits, always null for
 * a ride booked for now), and how many of its two reminders went out. Owned by rides.
 */
export interface RideScheduleColumns {
  scheduled_at: number | null;
  released_at: number | null;
  reminders_sent: Generated<number>;
}
