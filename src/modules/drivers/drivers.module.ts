import type { ClientMessageHandlers } from '../../events.ts';
import { DriverDocuments, type DriverDocumentsDependencies } from './driver-documents.service.ts';
import { DriverProfiles, type DriverProfilesDependencies } from './driver-profiles.service.ts';
import { PositionMessage } from './drivers.schemas.ts';
import { DriversService, type DriversDependencies } from './drivers.service.ts';

export interface DriverServices {
  drivers: DriversService;
  profiles: DriverProfiles;
  documents: DriverDocuments;
  /** Stops the documents' expiry sweeps. */
  stop: () => void;
}

/** How often each instance looks for documents about to expire or expired (their notices are claimed once). */
export const DOCUMENT_SWEEP_MS = 60_000;

/** Where drivers are and what they drive, what the drivers module reacts to, and what it takes over the realtime channel. */
export function createDrivers(deps: {
  drivers: DriversDependencies;
  profiles: Omit<DriverProfilesDependencies, 'documents'>;
  documents: DriverDocumentsDependencies & { sweepMs?: number };
  messages: ClientMessageHandlers;
}): DriverServices {
  const drivers = new DriversService(deps.drivers);
  const documents = new DriverDocuments(deps.documents);
  const profiles = new DriverProfiles({ ...deps.profiles, documents });
  const sweeps = setInterval(() => void documents.sweep().catch((error: unknown) => deps.drivers.log.error({ err: error }, 'document expiry sweep failed')), deps.documents.sweepMs ?? DOCUMENT_SWEEP_MS).unref();
  // A blocked or erased driver leaves the map before the operator gets the answer.
  deps.drivers.events.afterCommit('account.closed', ({ userId }) => drivers.goOffline(userId));
  // A position over the socket enters as at every other door; rides follows driver.positioned. Nothing is answered when it is taken.
  deps.messages.register('position', { schema: PositionMessage, roles: ['DRIVER'], handle: async (user, point) => void (await drivers.reportPosition(user.id, point)) });
  return { drivers, profiles, documents, stop: () => clearInterval(sweeps) };
}
