import type { FastifyBaseLogger } from 'fastify';
import type { UserHub } from '../../events.ts';
import type { Texts } from '../../platform/i18n/texts.ts';
import type { Mailer } from '../../platform/mail.ts';
import type { SmsSender } from '../../platform/sms.ts';
import type { Language } from '../../platform/vocabulary.ts';
import type { Operators } from '../auth/operators.ts';
import type { SettingsService } from '../settings/settings.service.ts';
import { contactKind } from './incident-access.ts';
import type { Incident } from './incidents.schemas.ts';

export interface EmergencyContact {
  kind: 'email' | 'phone';
  to: string;
  language: Language;
}

export interface IncidentAlertDependencies {
  hub: UserHub;
  operators: Pick<Operators, 'ids'>;
  settings: Pick<SettingsService, 'emergencyContactOf' | 'languageOf'>;
  texts: Texts;
  mailer: Mailer;
  sms: SmsSender;
  log: FastifyBaseLogger;
}

/**
 * Who hears of an incident: every operator, live on whichever instance their console is connected
 * to (the hub carries a user's messages to all their connections), and the reporter's emergency
 * contact, sent the trip's sharing link. The contact has no account, so no language of their own:
 * they are written to in the reporter's (who chose them, and most likely shares it).
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

  /** Whether the reporter has a contact to tell (an e-mail or a phone number in their settings), and in which language. */
  async contactOf(userId: number): Promise<EmergencyContact | null> {
    const contact = (await this.#deps.settings.emergencyContactOf(userId)).trim();
    const kind = contactKind(contact);
    return kind && { kind, to: contact, language: await this.#deps.settings.languageOf(userId) };
  }

  /** The link by e-mail, or by SMS to a phone number (written to the log without SMS_URL). */
  async tellContact(contact: EmergencyContact, reporterName: string, url: string): Promise<void> {
    const say = this.#deps.texts.in(contact.language);
    const text = say('mail.sosContact.text', { name: reporterName, url });
    if (contact.kind === 'email') {
      await this.#deps.mailer.send({ to: contact.to, subject: say('mail.sosContact.subject', { name: reporterName }), text });
    } else {
      await this.#deps.sms.send(contact.to, text);
    }
  }
}
