import type { ScheduleConfig } from '../../config.ts';
import { toIso } from '../../platform/clock.ts';
import { badRequest, conflict } from '../../platform/errors.ts';
import type { RideRow } from './rides.repository.ts';

/**
 * Around each ride a driver holds ahead, the time kept free besides its quoted minutes: to reach its
 * pickup before, and to get from its drop to the next pickup after.
 */
export const OVERLAP_MARGIN_MS = 30 * 60_000;

/** How long before its time the driver holding a ride booked ahead must be online: it is then theirs, or back to dispatch. */
export const DRIVER_CHECK_MS = 15 * 60_000;

/** Reminders of a ride booked ahead go out this long before its time, to its rider and the driver holding it. */
export const REMINDERS_MS = [60 * 60_000, 15 * 60_000] as const;

/** Until this long before its time a ride booked ahead is cancelled free; inside it, the usual rule. */
export const FREE_CANCELLATION_MS = 60 * 60_000;

/** The booking window of SCHEDULE_MIN_LEAD_MINUTES and SCHEDULE_MAX_DAYS, in ms. */
export type BookingWindow = Pick<ScheduleConfig, 'minLeadMs' | 'maxAheadMs'>;

/**
 * When a ride booked ahead is to be picked up, as epoch ms: `scheduledAt` must fall in the window
 * from `minLeadMs` to `maxAheadMs` after now, else 400 naming the rule it breaks. No `scheduledAt`:
 * the ride is for now (null).
 */
export function scheduledTime(scheduledAt: string | undefined, now: number, window: BookingWindow): number | null {
  if (scheduledAt === undefined) return null;
  const at = Date.parse(scheduledAt);
  if (Number.isNaN(at)) throw badRequest('scheduledAt must be a date-time such as 2026-12-01T05:00:00Z');
  const minutes = Math.round(window.minLeadMs / 60_000);
  if (at < now + window.minLeadMs) {
    throw badRequest(`A ride booked ahead is at least ${minutes} minutes away (from ${toIso(now + window.minLeadMs)}); book it for now instead`, 'SCHEDULE_TOO_SOON');
  }
  if (at > now + window.maxAheadMs) {
    const days = Math.round(window.maxAheadMs / 86_400_000);
    throw badRequest(`A ride is booked at most ${days} days ahead (until ${toIso(now + window.maxAheadMs)})`, 'SCHEDULE_TOO_FAR');
  }
  return at;
}

/**
 * A ride booked ahead is taken through dispatch only once it entered dispatch at its lead time:
 * before that it is no one's to accept the ordinary way (it is not in /rides/requested either).
 */
export function assertInDispatch(ride: Pick<RideRow, 'id' | 'scheduled_at' | 'released_at'>): void {
  if (ride.scheduled_at !== null && ride.released_at === null) {
    throw conflict(`Ride ${ride.id} is booked for ${toIso(ride.scheduled_at)} and is not looking for a driver yet`, 'RIDE_NOT_YET_DISPATCHED');
  }
}

/**
 * The status a cancellation's fee and penalty are decided by: a ride booked ahead is free to cancel
 * until FREE_CANCELLATION_MS before its time; inside it the usual rule applies, with a ride a driver
 * took ahead counting as ACCEPTED (they are keeping that time for it).
 */
export function cancellationStatus(ride: Pick<RideRow, 'status' | 'scheduled_at' | 'driver_id'>, now: number): string {
  if (ride.scheduled_at === null) return ride.status;
  if (now < ride.scheduled_at - FREE_CANCELLATION_MS) return 'REQUESTED';
  return ride.status === 'REQUESTED' && ride.driver_id !== null ? 'ACCEPTED' : ride.status;
}
