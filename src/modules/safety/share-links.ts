import { createHash, randomBytes } from 'node:crypto';
import type { Ride } from '../rides/rides.schemas.ts';
import type { SharedTrip } from './safety.schemas.ts';

// Trip-sharing links as pure functions: the token, what is kept of it, when a link stops working
// and what it shows (decisions.md "Safety": the driver's first name, the vehicle's number and model,
// the live position and ETA, the ride's status, and nothing else).

/** 32 random bytes: 256 bits, beyond the contract's 128, written in 43 base64url characters. */
const TOKEN_BYTES = 32;

/** A link stops working this long after its ride ended (completed or cancelled). */
export const AFTER_END_MS = 30 * 60_000;
/** And at the latest this long after it was made, however long the ride runs. */
export const LONGEST_MS = 12 * 60 * 60_000;

export interface NewToken {
  token: string;
  hash: string;
}

export function newShareToken(): NewToken {
  const token = randomBytes(TOKEN_BYTES).toString('base64url');
  return { token, hash: hashShareToken(token) };
}

/** What the table keeps: a lookup compares hashes, and a leaked row opens no link. */
export const hashShareToken = (token: string): string => createHash('sha256').update(token).digest('hex');

/** When the ride ended (epoch ms), or null while it runs. */
export function endedAt(ride: Pick<Ride, 'completedAt' | 'cancelledAt'>): number | null {
  const end = ride.completedAt ?? ride.cancelledAt;
  return end === null ? null : Date.parse(end);
}

/** Whether a link still shows its ride at `now`: not revoked, not past its own expiry nor 30 minutes past the ride's end. */
export function linkOpen(link: { expiresAt: number; revokedAt: number | null }, ride: Pick<Ride, 'completedAt' | 'cancelledAt'>, now: number): boolean {
  if (link.revokedAt !== null || now >= link.expiresAt) return false;
  const end = endedAt(ride);
  return end === null || now < end + AFTER_END_MS;
}

/** "Ravi Kumar" → "Ravi". */
export const firstName = (name: string): string => name.trim().split(/\s+/)[0] ?? '';

/**
 * The shared view of a ride: the position is the live one while the ride runs and the one the ride
 * recorded when it ended afterwards (the rides module decides which), so it stops moving at the end.
 */
export function toSharedTrip(ride: Ride, etaMinutes: number | null): SharedTrip {
  const position = ride.driverLat !== null && ride.driverLon !== null && ride.driverLocationUpdatedAt !== null ? { lat: ride.driverLat, lon: ride.driverLon, at: ride.driverLocationUpdatedAt } : null;
  return {
    status: ride.status,
    driverFirstName: ride.driverName === undefined ? null : firstName(ride.driverName),
    vehicleNumber: ride.vehicleNumber ?? null,
    vehicleModel: ride.vehicleModel ?? null,
    position,
    etaMinutes,
  };
}
