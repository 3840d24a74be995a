import { toIso } from '../../platform/clock.ts';
import type { DestinationChange } from './destination-change.schemas.ts';
import type { RideRow } from './rides.repository.ts';

// A ride's confirmed destination changes as its row keeps them (a JSON list, oldest first), and what
// they mean for the fare at completion: the distance-and-time part follows the last change's route,
// and the booking's own quote stays the ride's upfront fare.

/** A change as stored: its time in epoch milliseconds. */
export type StoredChange = Omit<DestinationChange, 'confirmedAt'> & { confirmedAt: number };

export const destinationChangesOf = (ride: Pick<RideRow, 'destination_changes'>): StoredChange[] => JSON.parse(ride.destination_changes) as StoredChange[];

export const toChangeViews = (ride: Pick<RideRow, 'destination_changes'>): DestinationChange[] =>
  destinationChangesOf(ride).map((change) => ({ ...change, confirmedAt: toIso(change.confirmedAt) }));

/** The fare the booking quoted, before any change. */
export const bookedFare = (ride: Pick<RideRow, 'destination_changes' | 'fare'>): number => destinationChangesOf(ride)[0]?.previousFare ?? ride.fare;

/** Why the fare follows a changed destination's route, for the breakdown; null when the destination never changed. */
export function destinationReason(ride: Pick<RideRow, 'destination_changes'>): string | null {
  const changes = destinationChangesOf(ride);
  const last = changes.at(-1);
  if (!last) return null;
  const first = changes[0];
  const where = last.dropLocation ?? `${last.dropLat}, ${last.dropLon}`;
  return `the rider changed the destination to ${where}: the route confirmed (${last.distanceKm} km, ${last.durationMinutes} min: ₹${last.fare}) replaces the booking's (${first.previousDistanceKm} km, ${first.previousDurationMinutes} min: ₹${first.previousFare})`;
}
