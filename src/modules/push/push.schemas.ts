import { Type, type Static } from 'typebox';
import { Timestamp } from '../../platform/schemas.ts';

/** The longest endpoint taken: the push services' are about 200 to 500 characters. */
export const MAX_ENDPOINT_LENGTH = 1024;

const Endpoint = Type.String({ minLength: 12, maxLength: MAX_ENDPOINT_LENGTH, description: "The push service's address for this browser (https)" });

/** What the browser's `PushSubscription.toJSON()` gives, as the app posts it. */
export const PushSubscriptionBody = Type.Object({
  endpoint: Endpoint,
  expirationTime: Type.Optional(Type.Union([Type.Number(), Type.Null()])),
  keys: Type.Object({
    p256dh: Type.String({ pattern: '^[A-Za-z0-9_-]{86,87}={0,2}$', description: "The browser's P-256 public key (65 bytes, base64url)" }),
    auth: Type.String({ pattern: '^[A-Za-z0-9_-]{21,22}={0,2}$', description: 'The auth secret (16 bytes, base64url)' }),
  }),
});
export type PushSubscriptionBody = Static<typeof PushSubscriptionBody>;

export const PushEndpointBody = Type.Object({ endpoint: Endpoint });
export type PushEndpointBody = Static<typeof PushEndpointBody>;

export const PushSubscribed = Type.Object({
  message: Type.String(),
  createdAt: Timestamp,
  subscriptions: Type.Integer({ description: "The account's subscriptions now, this one included (at most 10: the oldest goes)" }),
});
export type PushSubscribed = Static<typeof PushSubscribed>;

export const PushKey = Type.Object({
  publicKey: Type.String({ description: "The service's VAPID public key (P-256, uncompressed, base64url): the applicationServerKey browsers subscribe with" }),
});
export type PushKey = Static<typeof PushKey>;

/** What a push message carries to the app's service worker (encrypted to the browser: the push service cannot read it). */
export interface PushPayload {
  kind: 'offer' | 'ride' | 'sos';
  title: string;
  body: string;
  /** Messages with one tag replace each other on the screen. */
  tag: string;
  rideId?: number;
  offerId?: number;
  incidentId?: number;
  /** When an offer stops being takeable. */
  expiresAt?: string;
}
