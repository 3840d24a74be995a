import type { DomainEventsDispatcher } from '../../events.ts';
import { ComplaintsService, type ComplaintsDependencies } from './complaints.service.ts';

/** Complaints about rides, and what the complaints module reacts to. */
export function createComplaints(deps: ComplaintsDependencies & { events: DomainEventsDispatcher }): ComplaintsService {
  const complaints = new ComplaintsService(deps);
  // An erased account's complaints lose what the person wrote, in the erasure's unit.
  deps.events.inUnit('account.erasing', (tx, { userId }) => complaints.eraseTextOf(tx, userId));
  return complaints;
}
