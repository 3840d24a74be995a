import type { FastifyBaseLogger } from 'fastify';
import type { UserHub } from '../../events.ts';
import type { Mailer } from '../../platform/mail.ts';
import type { SmsSender } from '../../platform/sms.ts';
import type { Operators } from '../auth/operators.ts';
import type { SettingsService } from '../settings/settings.service.ts';
import { contactKind } from './incident-access.ts';
import type { Incident } from './incidents.schemas.ts';

export interface IncidentAlertDependencies {
  hub: UserHub;
  operators: Pick<Operators, 'ids'>;
  settings: Pick<SettingsService, 'emergencyContactOf'>;
  mailer: Mailer;
  sms: SmsSender;
  log: FastifyBaseLogger;
}

/**
 * Who hears of an incident: every operator, live on whichever instance their console is connected
 * to (the hub carries a user's messages to all their connections), and the reporter's emergency
 * contact, sent the trip's sharing link.
 */
export class IncidentAlerts {
  readonly #deps: IncidentAlertDependencies;

  constructor(deps: IncidentAlertDependencies) {
    this.#deps = deps;
  }

  /** `incident.created` or `incident.updated` to every operator; a console that missed it reads GET /admin/incidents. */
  async toOperators(type: 'incident.created' | 'incident.updated', incident: Incident): Promise<void> {
    const operators = await this.#deps.operators.ids();
    const sent = await Promise.allSettled(operators.map((id) => this.#deps.hub.send(id, type, incident)));
    const failed = sent.filter((result) => result.status === 'rejected').length;
    if (failed > 0) this.#deps.log.error({ incidentId: incident.id, failed, operators: operators.length }, `${type} did not reach every operator live`);
  }

  /** Whether the reporter has a contact to tell (an e-mail or a phone number in their settings). */
  async contactOf(userId: number): Promise<{ kind: 'email' | 'phone'; to: string } | null> {
    const contact = (await this.#deps.settings.emergencyContactOf(userId)).trim();
    const kind = contactKind(contact);
    return kind && { kind, to: contact };
  }

  /** The link by e-mail, or by SMS to a phone number (written to the log without SMS_URL). */
  async tellContact(contact: { kind: 'email' | 'phone'; to: string }, reporterName: string, url: string): Promise<void> {
    const text = `${reporterName} pressed SOS during a ride. Follow the ride live: ${url}\nOur operators have been alerted. If you think they are in danger, call the emergency services (112 in India).`;
    if (contact.kind === 'email') {
      await this.#deps.mailer.send({ to: contact.to, subject: `${reporterName} needs help: follow their ride`, text });
    } else {
      await this.#deps.sms.send(contact.to, text);
    }
  }
}
