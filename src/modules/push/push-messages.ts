import type { Say, TextValues } from '../../platform/i18n/texts.ts';
import type { Offer } from '../dispatch/offers.schemas.ts';
import type { Notification } from '../notifications/notifications.schemas.ts';
import type { Incident } from '../safety/incidents.schemas.ts';
import type { PushMessage } from './push-deliveries.ts';

// What a closed app is told, and how urgently: pure functions (push-rules.test.ts), in the words
// `say` gives in the recipient's language. Codes (OTPs) never go into a push message, as they never
// go into a notification.

/** A ride offered to a driver: urgent, and of no use once the offer has run out. */
export function offerMessage(offer: Offer, now: number, say: Say): PushMessage {
  const where: TextValues = offer.pickupLocation ? { place: 'known', pickup: offer.pickupLocation } : { place: 'unknown' };
  return {
    payload: {
      kind: 'offer',
      title: say('push.offer.title', { fare: offer.fare }),
      body: say('push.offer.body', { ...where, km: offer.pickupDistanceKm, minutes: offer.pickupEtaMinutes }),
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

/** A ride change (the notification its user was written, already in their language), or null for a notification not pushed. */
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
export function sosMessage(incident: { incidentId: number; rideId: number; party: Incident['party'] }, say: Say): PushMessage {
  return {
    payload: {
      kind: 'sos',
      title: say('push.sos.title', { rideId: String(incident.rideId) }),
      body: say('push.sos.body', { party: incident.party }),
      tag: `sos-${incident.incidentId}`,
      rideId: incident.rideId,
      incidentId: incident.incidentId,
    },
    options: { ttlSeconds: 3600, urgency: 'high' },
  };
}
