import type { FastifyBaseLogger } from 'fastify';
import type { Transactions } from '../../db/transaction.ts';
import type { Actor, AuditLog } from '../../platform/audit.ts';
import type { DomainEventsDispatcher } from '../../events.ts';
import type { AuthUser } from '../../platform/auth/roles.ts';
import { toIso, type Clock } from '../../platform/clock.ts';
import { conflict, notFound } from '../../platform/errors.ts';
import type { Timing } from '../../platform/metrics.ts';
import { assertSosWindow, reporterParty } from './incident-access.ts';
import type { IncidentAlerts } from './incident-alerts.ts';
import type { IncidentTrack } from './incident-track.ts';
import { incidentState, incidentViews, type IncidentViewDependencies } from './incident-views.ts';
import * as repository from './incidents.repository.ts';
import type { Incident, IncidentsQuery, SosBody, SosReceipt } from './incidents.schemas.ts';
import type { TripShares } from './trip-shares.service.ts';

export interface IncidentsDependencies extends IncidentViewDependencies {
  transactions: Transactions;
  shares: Pick<TripShares, 'linkFor'>;
  alerts: IncidentAlerts;
  track: Pick<IncidentTrack, 'follow'>;
  audit: AuditLog;
  /** Seconds from SOS to acknowledgement, in /metrics. */
  ackTiming: Timing;
  clock: Clock;
  log: FastifyBaseLogger;
  events: Pick<DomainEventsDispatcher, 'emit'>;
}

/** SOS and incidents: raised by a ride's rider or driver, worked by operators (each step audited). */
export class Incidents {
  readonly #deps: IncidentsDependencies;

  constructor(deps: IncidentsDependencies) {
    this.#deps = deps;
  }

  /**
   * POST /rides/{id}/sos. A ride has one unresolved incident: a second SOS adds its note to it and
   * tells operators again (incident.updated) instead of raising a second alarm.
   */
  async report(user: AuthUser, rideId: number, body: SosBody, origin: string): Promise<SosReceipt> {
    const { clock } = this.#deps;
    const ride = await this.#deps.rides.find(rideId);
    const party = reporterParty(user, ride);
    assertSosWindow(ride, clock.now());
    const note = body.note?.trim() ?? '';
    const { row, created } = await this.#deps.transactions.run(async (tx) => {
      const now = clock.now();
      const inserted = await repository.insertIncident(tx.db, { ride_id: rideId, reporter_id: user.id, party, driver_id: ride.driverId, status: 'open', open_ride_id: rideId, created_at: now });
      const incident = inserted ?? (await repository.unresolvedOfRide(tx.db, rideId));
      if (!incident) throw conflict(`Ride ${rideId}'s incident changed meanwhile; send the SOS again`, 'INCIDENT_CHANGED');
      if (note !== '') await repository.insertNote(tx.db, { incident_id: incident.id, author_id: user.id, text: note, created_at: now });
      if (inserted) await this.#deps.events.emit(tx, 'incident.opened', { incidentId: inserted.id, rideId, party });
      return { row: incident, created: inserted !== undefined };
    });
    if (created && ride.driverId !== null) this.#deps.track.follow(row.id, ride.driverId);
    const contact = created ? await this.#deps.alerts.contactOf(user.id) : null;
    // Told after the commit, and not waited for: the reporter's answer must not wait on mail or a slow operator socket.
    void this.#announce(created ? 'incident.created' : 'incident.updated', row.id);
    if (contact) {
      void (async () => {
        const { url } = await this.#deps.shares.linkFor(ride, user.id, origin);
        const reporter = (await this.#deps.users.findUsers([user.id])).get(user.id)?.name ?? 'Someone';
        await this.#deps.alerts.tellContact(contact, reporter, url);
      })().catch((error: unknown) => this.#deps.log.error({ err: error, incidentId: row.id }, 'emergency contact not told'));
    }
    return { incidentId: row.id, status: row.status as SosReceipt['status'], createdAt: toIso(Number(row.created_at)), emergencyContactTold: contact !== null };
  }

  /** GET /admin/incidents: unresolved first (open, then acknowledged), newest first. */
  async list(query: IncidentsQuery): Promise<{ items: Incident[] }> {
    return { items: await incidentViews(this.#deps, await repository.listIncidents(this.#deps.db, query.status)) };
  }

  async get(id: number): Promise<Incident> {
    const row = await repository.findIncident(this.#deps.db, id);
    if (!row) throw notFound(`Incident ${id} not found`);
    return (await incidentViews(this.#deps, [row]))[0];
  }

  /** An operator has it: the other consoles stop alarming. */
  acknowledge(actor: Actor, id: number): Promise<Incident> {
    return this.#step(actor, id, 'incident.ack', async (tx, now) => {
      const row = await repository.acknowledge(tx, id, actor.id, now);
      if (row) this.#deps.ackTiming.observe({}, (now - Number(row.created_at)) / 1000);
      return row;
    }, 'INCIDENT_NOT_OPEN', 'is not open');
  }

  note(actor: Actor, id: number, text: string): Promise<Incident> {
    return this.#step(actor, id, 'incident.note', async (tx, now) => {
      const row = await repository.findIncident(tx, id);
      if (row) await repository.insertNote(tx, { incident_id: id, author_id: actor.id, text: text.trim(), created_at: now });
      return row;
    });
  }

  resolve(actor: Actor, id: number): Promise<Incident> {
    return this.#step(actor, id, 'incident.resolve', (tx, now) => repository.resolve(tx, id, actor.id, now), 'INCIDENT_RESOLVED', 'is resolved already');
  }

  /** The overview's figures: unresolved now, and acknowledgements since `since` with their mean time. */
  async figures(since: number): Promise<{ open: number; acknowledged: number; acknowledgedSince: number; meanAckSeconds: number | null }> {
    const { open, acknowledged, acks, meanAckMs } = await repository.figures(this.#deps.db, since);
    return { open, acknowledged, acknowledgedSince: acks, meanAckSeconds: meanAckMs === null ? null : Math.round(meanAckMs / 100) / 10 };
  }

  /** One audited step: the change (undefined: refused), the audit entry with the state before and after, then every console hears it. */
  async #step(actor: Actor, id: number, action: string, change: (tx: Parameters<typeof repository.insertNote>[0], now: number) => Promise<repository.IncidentRow | undefined>, code = 'CONFLICT', refusal = ''): Promise<Incident> {
    const before = await this.get(id);
    const after = await this.#deps.transactions.run(async (tx) => {
      const row = await change(tx.db, this.#deps.clock.now());
      if (!row) throw conflict(`Incident ${id} ${refusal}`, code);
      const view = (await incidentViews({ ...this.#deps, db: tx.db }, [row]))[0];
      await this.#deps.audit.record(tx, { actor, action, target: { type: 'incident', id }, before: incidentState(before), after: incidentState(view) });
      return view;
    });
    void this.#deps.alerts.toOperators('incident.updated', after).catch((error: unknown) => this.#deps.log.error({ err: error, incidentId: id }, 'incident.updated not sent'));
    return after;
  }

  async #announce(type: 'incident.created' | 'incident.updated', id: number): Promise<void> {
    try {
      await this.#deps.alerts.toOperators(type, await this.get(id));
    } catch (error) {
      this.#deps.log.error({ err: error, incidentId: id }, `${type} not sent`);
    }
  }
}
