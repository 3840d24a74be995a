import type { Static } from 'typebox';
import type { Offer } from './modules/dispatch/offers.schemas.ts';
import type { PositionMessage } from './modules/drivers/drivers.schemas.ts';
import type { Notification } from './modules/notifications/notifications.schemas.ts';
import type { RideRow } from './modules/rides/rides.repository.ts';
import type { Ride, RideStatus } from './modules/rides/rides.schemas.ts';
import type { Incident } from './modules/safety/incidents.schemas.ts';
import type { AuthUser } from './platform/auth/roles.ts';
import type { DomainEventDispatcher } from './platform/domain-events.ts';
import type { EventBus } from './platform/event-bus.ts';
import type { DriverPosition } from './platform/geo/driver-index.ts';
import type { ClientMessageRegistry } from './platform/realtime/client-messages.ts';
import type { RealtimeHub } from './platform/realtime/hub.ts';

// Everything that crosses the event bus, reaches a user live, or lets one module react to another,
// with its payload: change a message type here and the compiler finds every sender and receiver.

/**
 * What happens in the modules that other modules react to, on this instance (platform/domain-events.ts
 * delivers them: `inUnit` handlers inside the emitter's unit of work, `afterCommit` ones after it).
 * Each module subscribes in its own `*.module.ts`; the comment says when the event is emitted.
 */
export type DomainEvents = {
  /** After commit: a ride was booked (it is REQUESTED). */
  'ride.booked': { ride: RideRow };
  /** After commit: a ride booked ahead reached its dispatch lead time and now looks for a driver (it is REQUESTED). */
  'ride.released': { ride: RideRow };
  /**
   * Inside the unit that moves a ride to a new status, after the conditional update (the row is
   * locked). A handler that changes the ride again puts its new row in `ride`, so the step's answer
   * and announcement show the change. `operator` is the operator who took the step for someone else.
   */
  'ride.moving': { ride: RideRow; from: RideStatus; operator: AuthUser | undefined };
  /**
   * After commit: a booked ride changed, either a step (from the status it left) or a change that
   * kept its status (`from` equals `ride.status`: no driver found, a rating, a payment).
   */
  'ride.moved': { ride: RideRow; from: RideStatus };
  /** A driver's position is in the live index (not in a unit: positions are written once a second). */
  'driver.positioned': DriverPosition;
  /** A driver went off the map (not in a unit). */
  'driver.offline': { driverId: number };
  /** At start, the drivers online moments before were shown again (not in a unit). */
  'drivers.restored': { positions: readonly DriverPosition[] };
  /** After commit: a driver's vehicle profile or its approval changed. */
  'driver.profile-changed': { driverId: number };
  /** Inside the erasure's unit: each module forgets what the person left in its tables. */
  'account.erasing': { userId: number };
  /** After a block or an erasure committed, before the operator's answer (not in a unit). */
  'account.closed': { userId: number };
  /** After commit: refunds were recorded, to be sent to the payment provider. */
  'refund.recorded': { refundIds: readonly number[] };
  /** After commit: a ride was offered to a driver (not in a unit: emitted once the offer committed). */
  'offer.created': { driverId: number; offer: Offer };
  /** After commit: a notification was saved for its user (not in a unit: emitted once it committed). */
  'notification.created': Notification;
  /** After commit: an SOS opened an incident (a second SOS on its ride adds to it instead). */
  'incident.opened': { incidentId: number; rideId: number; party: Incident['party'] };
};
export type DomainEventsDispatcher = DomainEventDispatcher<DomainEvents>;

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
  /** A user chose another language: every instance forgets the one it remembered for their texts. */
  'language.changed': { userId: number };
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
  /** Minutes to the pickup while ACCEPTED, to the drop (through the stops left) while PICKED, by the service's router; null when it cannot tell. */
  etaMinutes: number | null;
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
  /** To every operator: an SOS opened an incident (the console alarms until one acknowledges). */
  'incident.created': Incident;
  /** To every operator: an incident was acknowledged, noted or resolved, or its ride's SOS was pressed again. */
  'incident.updated': Incident;
};
export type UserHub = RealtimeHub<UserMessages>;

/**
 * What a user's apps send over the realtime channel besides its own `auth` and `ping`: each type with
 * its fields, from the schema its module registers with (platform/realtime/client-messages.ts checks
 * that they are the same). The contract's `ClientMessage` is built from this map.
 */
export type ClientMessages = {
  /** A driver's position (drivers.module.ts): what PUT /drivers/me/location does. */
  'position': Static<typeof PositionMessage>;
};
export type ClientMessageHandlers = ClientMessageRegistry<ClientMessages>;
