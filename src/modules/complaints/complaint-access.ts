import type { AuthUser } from '../../platform/auth/roles.ts';
import { forbidden } from '../../platform/errors.ts';
import { viewerOf, type RideParties } from '../rides/ride-access.ts';
import type { ComplainantParty } from './complaints.schemas.ts';

// Who may complain about a ride and read its complaints, as pure functions of the caller and the
// ride's parties (the rides module's own rule for who takes part).

/** The complainant's part in the ride: its rider or its driver; nobody else may complain about it. */
export function complainantParty(user: AuthUser, ride: RideParties): ComplainantParty {
  const viewer = viewerOf(user, ride);
  if (viewer === 'rider' || viewer === 'driver') return viewer;
  throw forbidden("Only the ride's rider or driver can complain about it");
}

/**
 * Whose complaints about the ride the caller may read: their own as its rider or driver (the other
 * party's words stay with support), every one as an operator.
 */
export function readableComplaints(user: AuthUser, ride: RideParties): { filedBy: number } | 'all' {
  const viewer = viewerOf(user, ride);
  if (viewer === 'admin') return 'all';
  if (viewer === 'public') throw forbidden("Only the ride's rider or driver can read its complaints");
  return { filedBy: user.id };
}
