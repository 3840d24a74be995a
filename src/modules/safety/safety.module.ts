import type { FastifyBaseLogger } from 'fastify';
import type { DomainEventsDispatcher, UserHub } from '../../events.ts';
import type { AuditLog } from '../../platform/audit.ts';
import type { Texts } from '../../platform/i18n/texts.ts';
import type { Mailer } from '../../platform/mail.ts';
import type { Metrics } from '../../platform/metrics.ts';
import type { Operators } from '../auth/operators.ts';
import type { AuthService } from '../auth/auth.service.ts';
import type { SettingsService } from '../settings/settings.service.ts';
import { IncidentAlerts } from './incident-alerts.ts';
import { IncidentTrack } from './incident-track.ts';
import { Incidents } from './incidents.service.ts';
import { AccountPhones, type AccountPhonesDependencies } from './phones.service.ts';
import { RideCalls, type RideCallsDependencies } from './ride-calls.service.ts';
import { TripShares, type TripSharesDependencies } from './trip-shares.service.ts';

export interface SafetyDependencies extends TripSharesDependencies, Omit<AccountPhonesDependencies, keyof TripSharesDependencies>, Pick<RideCallsDependencies, 'telephony'> {
  events: DomainEventsDispatcher;
  hub: UserHub;
  users: Pick<AuthService, 'findUsers'>;
  operators: Pick<Operators, 'ids'>;
  settings: Pick<SettingsService, 'emergencyContactOf' | 'languageOf'>;
  texts: Texts;
  mailer: Mailer;
  audit: AuditLog;
  metrics: Pick<Metrics, 'histogram'>;
  log: FastifyBaseLogger;
}

/** The safety module's services: trip-sharing links, incidents with their tracks, accounts' phone numbers and the masked calls between them. */
export interface SafetyServices {
  shares: TripShares;
  incidents: Incidents;
  track: IncidentTrack;
  phones: AccountPhones;
  calls: RideCalls;
}

/** From an SOS to its acknowledgement: seconds to a quarter of an hour. */
const ACK_BUCKETS = [5, 10, 20, 30, 60, 120, 300, 600, 900];

export async function createSafety(deps: SafetyDependencies): Promise<SafetyServices> {
  const shares = new TripShares(deps);
  const track = new IncidentTrack(deps);
  await track.start();
  // What the safety module reacts to: positions of a driver whose ride has an unresolved incident join its track.
  deps.events.afterCommit('driver.positioned', (position) => track.onPosition(position));
  const alerts = new IncidentAlerts(deps);
  const ackTiming = deps.metrics.histogram('incident_acknowledge_seconds', 'From an SOS to an operator acknowledging it', [], ACK_BUCKETS);
  const incidents = new Incidents({ ...deps, shares, alerts, track, ackTiming });
  const phones = new AccountPhones(deps);
  deps.events.inUnit('account.erasing', (tx, { userId }) => phones.erase(tx, userId));
  const calls = new RideCalls({ ...deps, phones });
  return { shares, incidents, track, phones, calls };
}
