// When a ride shows where its driver is: pure functions of the ride's status, without imports, so
// the clients show the same rule through src/contract/rules.ts instead of writing it again.

/** Participants see the position while the ride is under way. */
export const livePosition = (status: string): boolean => status === 'ACCEPTED' || status === 'PICKED';

/**
 * Whether someone who does not take part may see where the driver is: while the driver comes to
 * the pickup, during the trip only when the rider shares trips, never once the ride has ended.
 */
export function publicPositionVisible(status: string, riderSharesTrips: boolean): boolean {
  return status === 'ACCEPTED' || (status === 'PICKED' && riderSharesTrips);
}
