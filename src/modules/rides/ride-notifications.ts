import type { NoticeName, TextValues } from '../../platform/i18n/texts.ts';
import type { NotificationEvent } from '../../platform/vocabulary.ts';
import type { NewNotification } from '../notifications/notifications.service.ts';
import type { RideRow } from './rides.repository.ts';
import type { CancelledBy } from './rides.schemas.ts';

// Who hears about what, and in which words (src/platform/i18n, in each reader's language). Codes
// (OTPs) never go into a notification.

const trip = (ride: Pick<RideRow, 'pickup_location' | 'drop_location'>): TextValues =>
  ride.pickup_location && ride.drop_location ? { trip: 'known', pickup: ride.pickup_location, drop: ride.drop_location } : { trip: 'unknown' };

/** A ride's notice; its number is text, so that no language groups its digits. */
const note = (ride: Pick<RideRow, 'id'>, userId: number, eventType: NotificationEvent, name: NoticeName, values: TextValues = {}): NewNotification => ({
  userId,
  rideId: ride.id,
  eventType,
  text: { name, values: { rideId: String(ride.id), ...values } },
});

/** Written with the booking in one statement, before the ride has an id (the statement links them). */
export const rideRequested = (ride: Pick<RideRow, 'rider_id' | 'pickup_location' | 'drop_location' | 'fare' | 'scheduled_at'>): NewNotification => ({
  userId: ride.rider_id,
  eventType: 'RIDE_REQUESTED',
  text:
    ride.scheduled_at === null
      ? { name: 'rideRequested', values: { ...trip(ride), fare: ride.fare } }
      : { name: 'rideBookedAhead', values: { ...trip(ride), fare: ride.fare, at: ride.scheduled_at } },
});

export const rideAccepted = (ride: RideRow): NewNotification[] => [note(ride, ride.rider_id, 'RIDE_ACCEPTED', 'rideAccepted')];

export const driverArriving = (ride: Pick<RideRow, 'id' | 'rider_id'>): NewNotification[] => [note(ride, ride.rider_id, 'DRIVER_ARRIVING', 'driverArriving')];

export const rideStarted = (ride: RideRow): NewNotification[] => [
  note(ride, ride.rider_id, 'RIDE_STARTED', 'rideStarted'),
  note(ride, ride.driver_id!, 'RIDE_STARTED', 'pickupConfirmed', trip(ride)),
];

export const rideCompleted = (ride: RideRow): NewNotification[] => [ride.rider_id, ride.driver_id!].map((userId) =>
  note(ride, userId, 'RIDE_COMPLETED', 'rideCompleted', { fare: ride.fare, mode: ride.payment_mode }),
);

/** The other party hears of a cancellation; after an admin's, both do. */
export function rideCancelled(ride: RideRow, by: CancelledBy): NewNotification[] {
  const values = { by, ...(ride.cancellation_reason ? { withReason: 'yes', reason: ride.cancellation_reason } : { withReason: 'no' }) };
  const notes: NewNotification[] = [];
  if (by !== 'rider') notes.push(note(ride, ride.rider_id, 'RIDE_CANCELLED', 'rideCancelled', values));
  if (by !== 'driver' && ride.driver_id !== null) notes.push(note(ride, ride.driver_id, 'RIDE_CANCELLED', 'rideCancelled', values));
  return notes;
}

export const noDriverFound = (ride: Pick<RideRow, 'id' | 'rider_id'>): NewNotification => note(ride, ride.rider_id, 'NO_DRIVER_FOUND', 'noDriverFound');

/** The driver who took a ride booked ahead was not online (or still on another ride) when they had to be: both hear it. */
export const driverNoShow = (ride: Pick<RideRow, 'id' | 'rider_id'>, driverId: number): NewNotification[] => [
  note(ride, ride.rider_id, 'DRIVER_NO_SHOW', 'driverNoShow'),
  note(ride, driverId, 'DRIVER_NO_SHOW', 'rideReassigned'),
];

/** A reminder of a ride booked ahead, `minutes` before its time: to its rider and to the driver holding it. */
export function rideReminder(ride: Pick<RideRow, 'id' | 'rider_id' | 'driver_id' | 'scheduled_at' | 'pickup_location' | 'drop_location'>, minutes: number): NewNotification[] {
  const values = { ...trip(ride), minutes, at: ride.scheduled_at! };
  const notes = [note(ride, ride.rider_id, 'RIDE_REMINDER', 'rideReminder', values)];
  if (ride.driver_id !== null) notes.push(note(ride, ride.driver_id, 'RIDE_REMINDER', 'driverReminder', values));
  return notes;
}
