import type { Offer } from '../dispatch/offers.schemas.ts';
import type { Notification } from '../notifications/notifications.schemas.ts';
import type { Incident } from '../safety/incidents.schemas.ts';
import type { PushMessage } from './push-deliveries.ts';

// What a closed app is told, and how urgently: pure functions (push-messages.test.ts). Codes (OTPs)
// never go into a push message, as they never go into a notification.

/** A ride offered to a driver: urgent, and of no use once the offer has run out. */
export function offerMessage(offer: Offer, now: number): PushMessage {
  const where = offer.pickupLocation ? ` at ${offer.pickupLocation}` : '';
  return {
    payload: {
      kind: 'offer',
      title: `New ride: ₹${offer.fare}`,
      body: `Pickup${where}, ${offer.pickupDistanceKm} km away (${offer.pickupEtaMinutes} min). Open the app to accept.`,
      tag: `offer-${offer.offerId}`,
      rideId: offer.rideId,
      offerId: offer.offerId,
      expiresAt: offer.expiresAt,
    },
    options: { ttlSeconds: Math.max(1, Math.floor((Date.parse(offer.expiresAt) - now) / 1000)), urgency: 'high', topic: 'offer' },
  };
}

/** The notifications a closed app is pushed: the ride's steps the rider waits for, and its end. */
const RIDE_CHANGES: Partial<Record<Notification['eventType'], { urgency: PushMessage['options']['urgency']; ttlSeconds: number }>> = {
  RIDE_ACCEPTED: { urgency: 'high', ttlSeconds: 600 },
  DRIVER_ARRIVING: { urgency: 'high', ttlSeconds: 300 },
  RIDE_STARTED: { urgency: 'normal', ttlSeconds: 600 },
  RIDE_COMPLETED: { urgency: 'normal', ttlSeconds: 3600 },
  RIDE_CANCELLED: { urgency: 'high', ttlSeconds: 3600 },
};

/** A ride change (the notification its user was written), or null for a notification not pushed. */
export function rideChangeMessage(notification: Notification): PushMessage | null {
  const how = RIDE_CHANGES[notification.eventType];
  if (!how || notification.rideId === null) return null;
  return {
    payload: { kind: 'ride', title: notification.title, body: notification.message, tag: `ride-${notification.rideId}`, rideId: notification.rideId },
    // One topic per ride: a newer change replaces an older one the push service still holds.
    options: { ...how, topic: `ride-${notification.rideId}` },
  };
}

/** An SOS, to every operator whose console is closed. */
export function sosMessage(incident: { incidentId: number; rideId: number; party: Incident['party'] }): PushMessage {
  return {
    payload: {
      kind: 'sos',
      title: `SOS on ride #${incident.rideId}`,
      body: `The ${incident.party} pressed SOS. Open the incident desk to acknowledge it.`,
      tag: `sos-${incident.incidentId}`,
      rideId: incident.rideId,
      incidentId: incident.incidentId,
    },
    options: { ttlSeconds: 3600, urgency: 'high' },
  };
}
