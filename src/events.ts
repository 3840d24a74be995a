import type { Offer } from './modules/dispatch/offers.schemas.ts';
import type { Notification } from './modules/notifications/notifications.schemas.ts';
import type { Ride } from './modules/rides/rides.schemas.ts';
import type { EventBus } from './platform/event-bus.ts';
import type { RealtimeHub } from './platform/realtime/hub.ts';

// Everything that crosses the event bus or reaches a user live, with its payload: change a message
// type here and the compiler finds every sender and receiver.

/** Events between the parts of the service, on every instance. */
export type ServiceEvents = {
  /** A ride changed: every instance drops what it remembers of it (and of its driver's active ride). */
  'ride.changed': { rideId: number; driverId: number | null; status: string };
  /** Something that decides a driver's availability changed (an offer, a profile): instances re-read it. */
  'driver.changed': { driverId: number };
  /** An operator made new pricing rules: every instance quotes them from now on. */
  'pricing.changed': { version: number };
  /** An account change ended the user's tokens below `version`: every instance refuses them from now on. */
  'tokens.revoked': { userId: number; version: number };
  /** A ride was booked or an offer answered: the dispatcher may want to run a round now. */
  'dispatch.nudge': Record<string, never>;
};
export type ServiceBus = EventBus<ServiceEvents>;

/** A driver position as the rider follows it. */
export interface RidePosition {
  rideId: number;
  lat: number;
  lon: number;
  at: string;
}

/** What a user's apps hear live over the realtime channel (and, for notifications, SSE). */
export type UserMessages = {
  /** A ride the user rides or drives changed; data is the user's view of it. */
  'ride.updated': Ride;
  /** To the rider while the ride is ACCEPTED or PICKED. */
  'ride.position': RidePosition;
  'notification.created': Notification;
  /** To a driver: a ride offered to them, an offer taken back (the ride was taken or cancelled), or one whose time ran out. */
  'offer.created': Offer;
  'offer.withdrawn': Offer;
  'offer.expired': Offer;
};
export type UserHub = RealtimeHub<UserMessages>;
