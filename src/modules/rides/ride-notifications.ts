import type { NotificationEvent } from '../../platform/vocabulary.ts';
import type { NewNotification } from '../notifications/notifications.service.ts';
import type { RideRow } from './rides.repository.ts';
import type { CancelledBy } from './rides.schemas.ts';

// Who hears about what, and in which words. Codes (OTPs) never go into a notification.

const trip = (ride: Pick<RideRow, 'pickup_location' | 'drop_location'>) =>
  ride.pickup_location && ride.drop_location ? ` from ${ride.pickup_location} to ${ride.drop_location}` : '';

const note = (ride: Pick<RideRow, 'id'>, userId: number, eventType: NotificationEvent, title: string, message: string): NewNotification => ({
  userId,
  rideId: ride.id,
  eventType,
  title,
  message,
});

/** Written with the booking in one statement, before the ride has an id (the statement links them). */
export const rideRequested = (ride: Pick<RideRow, 'rider_id' | 'pickup_location' | 'drop_location' | 'fare' | 'scheduled_at'>): NewNotification =>
  ride.scheduled_at === null
    ? {
        userId: ride.rider_id,
        eventType: 'RIDE_REQUESTED',
        title: 'Looking for a driver',
        message: `Your ride${trip(ride)} is booked for ₹${ride.fare}. We will tell you when a driver accepts.`,
      }
    : {
        userId: ride.rider_id,
        eventType: 'RIDE_REQUESTED',
        title: 'Ride booked ahead',
        message: `Your ride${trip(ride)} is booked for ${new Date(ride.scheduled_at).toISOString()} at ₹${ride.fare}, held whatever the demand then. We will tell you when a driver accepts.`,
      };

export const rideAccepted = (ride: RideRow): NewNotification[] => [
  note(ride, ride.rider_id, 'RIDE_ACCEPTED', 'Driver on the way', `A driver accepted ride #${ride.id} and is heading to your pickup point.`),
];

export const driverArriving = (ride: Pick<RideRow, 'id' | 'rider_id'>): NewNotification[] => [
  note(ride, ride.rider_id, 'DRIVER_ARRIVING', 'Your driver is arriving', `Your driver is less than 300 m from the pickup point of ride #${ride.id}.`),
];

export const rideStarted = (ride: RideRow): NewNotification[] => [
  note(ride, ride.rider_id, 'RIDE_STARTED', 'Ride started', `Ride #${ride.id} has started. Have a good trip.`),
  note(ride, ride.driver_id!, 'RIDE_STARTED', 'Ride started', `Pickup confirmed for ride #${ride.id}${trip(ride)}.`),
];

export const rideCompleted = (ride: RideRow): NewNotification[] => [
  note(ride, ride.rider_id, 'RIDE_COMPLETED', 'Ride completed', `Ride #${ride.id} is complete. Fare ₹${ride.fare} by ${ride.payment_mode}.`),
  note(ride, ride.driver_id!, 'RIDE_COMPLETED', 'Ride completed', `Ride #${ride.id} is complete. Fare ₹${ride.fare} by ${ride.payment_mode}.`),
];

/** The other party hears of a cancellation; after an admin's, both do. */
export function rideCancelled(ride: RideRow, by: CancelledBy): NewNotification[] {
  const reason = ride.cancellation_reason ? ` Reason: ${ride.cancellation_reason}` : '';
  const notes: NewNotification[] = [];
  if (by !== 'rider') {
    notes.push(note(ride, ride.rider_id, 'RIDE_CANCELLED', 'Ride cancelled', `Ride #${ride.id} was cancelled by the ${by}.${reason}`));
  }
  if (by !== 'driver' && ride.driver_id !== null) {
    notes.push(note(ride, ride.driver_id, 'RIDE_CANCELLED', 'Ride cancelled', `Ride #${ride.id} was cancelled by the ${by}.${reason}`));
  }
  return notes;
}

export const noDriverFound = (ride: Pick<RideRow, 'id' | 'rider_id'>): NewNotification =>
  note(ride, ride.rider_id, 'NO_DRIVER_FOUND', 'No driver found yet', `No driver has taken ride #${ride.id} yet. It stays open: a driver may still accept it, or you can cancel it at no charge.`);

/** The driver who took a ride booked ahead was not online (or still on another ride) when they had to be: both hear it. */
export const driverNoShow = (ride: Pick<RideRow, 'id' | 'rider_id'>, driverId: number): NewNotification[] => [
  note(ride, ride.rider_id, 'DRIVER_NO_SHOW', 'Finding you another driver', `The driver who took ride #${ride.id} is not online; we are finding you another one now, at the same fare.`),
  note(ride, driverId, 'DRIVER_NO_SHOW', 'Ride booked ahead given to another driver', `You were not online (or were on another ride) 15 minutes before ride #${ride.id}, so it went back to dispatch.`),
];

/** A reminder of a ride booked ahead, `minutes` before its time: to its rider and to the driver holding it. */
export function rideReminder(ride: Pick<RideRow, 'id' | 'rider_id' | 'driver_id' | 'scheduled_at' | 'pickup_location' | 'drop_location'>, minutes: number): NewNotification[] {
  const when = `in ${minutes} minutes (${new Date(ride.scheduled_at!).toISOString()})`;
  const notes = [note(ride, ride.rider_id, 'RIDE_REMINDER', 'Your ride is coming up', `Your ride #${ride.id}${trip(ride)} is ${when}.`)];
  if (ride.driver_id !== null) notes.push(note(ride, ride.driver_id, 'RIDE_REMINDER', 'A ride you took is coming up', `Ride #${ride.id}${trip(ride)} is ${when}. Be online 15 minutes before it.`));
  return notes;
}
