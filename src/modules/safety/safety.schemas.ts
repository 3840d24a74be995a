import { Type, type Static } from 'typebox';
import { Nullable, Timestamp } from '../../platform/schemas.ts';
import { RIDE_STATUSES } from '../rides/rides.schemas.ts';

/** A sharing link's token: 32 random bytes in base64url (share-links.ts makes them). */
const TOKEN_PATTERN = '^[A-Za-z0-9_-]{43}$';

export const ShareLink = Type.Object({
  url: Type.String({ description: 'The page to send to family or friends: no account or app needed' }),
  expiresAt: Type.String({ format: 'date-time', description: 'The latest the link works; it stops 30 minutes after the ride ends when that is sooner, and at once when revoked' }),
});
export type ShareLink = Static<typeof ShareLink>;

export const ShareTokenParams = Type.Object({ token: Type.String({ pattern: TOKEN_PATTERN, description: 'The token of a sharing link' }) });

const SharedPosition = Type.Object({ lat: Type.Number(), lon: Type.Number(), at: Timestamp });

/** What a sharing link shows, and nothing else (decisions.md "Safety"). */
export const SharedTrip = Type.Object({
  status: Type.Enum(RIDE_STATUSES),
  driverFirstName: Nullable(Type.String()),
  vehicleNumber: Nullable(Type.String()),
  vehicleModel: Nullable(Type.String()),
  position: Type.Union([SharedPosition, Type.Null()], { description: "The driver's position: live while the ride runs, where it ended afterwards" }),
  etaMinutes: Nullable(Type.Integer({ description: 'Minutes to the pickup while the driver comes, to the drop during the trip; null once the ride ended or without a position' })),
});
export type SharedTrip = Static<typeof SharedTrip>;
