import type { Db } from '../../db/database.ts';
import type { Transactions, Tx } from '../../db/transaction.ts';
import type { AuthUser } from '../../platform/auth/roles.ts';
import { toIso, toIsoOrNull, type Clock } from '../../platform/clock.ts';
import { conflict, notFound } from '../../platform/errors.ts';
import { takePage, toPage } from '../../platform/pagination.ts';
import type { NewNotification, NotificationsService } from '../notifications/notifications.service.ts';
import type { RideParties } from '../rides/ride-access.ts';
import type { RideQueries } from '../rides/ride-queries.service.ts';
import { complainantParty, readableComplaints } from './complaint-access.ts';
import * as repository from './complaints.repository.ts';
import type { ComplainantParty, Complaint, ComplaintBody, ComplaintCategory, ComplaintsQuery, ComplaintStatus } from './complaints.schemas.ts';

export interface ComplaintsDependencies {
  db: Db;
  transactions: Transactions;
  rides: Pick<RideQueries, 'parties'>;
  notifications: Pick<NotificationsService, 'record'>;
  clock: Clock;
}

/** Complaints about rides: filed by a ride's rider or driver, resolved by operators (who are audited by the admin module). */
export class ComplaintsService {
  readonly #deps: ComplaintsDependencies;

  constructor(deps: ComplaintsDependencies) {
    this.#deps = deps;
  }

  async file(user: AuthUser, rideId: number, body: ComplaintBody): Promise<Complaint> {
    const party = complainantParty(user, await this.#deps.rides.parties(rideId));
    const row = await this.#deps.transactions.run((tx) =>
      repository.insertComplaint(tx.db, {
        ride_id: rideId,
        filed_by: user.id,
        party,
        category: body.category,
        message: body.message.trim(),
        status: 'open',
        created_at: this.#deps.clock.now(),
      }),
    );
    return toComplaint(row);
  }

  /** The ride's complaints the caller may read, oldest first. */
  async onRide(user: AuthUser, rideId: number): Promise<Complaint[]> {
    const readable = readableComplaints(user, await this.#deps.rides.parties(rideId));
    const rows = await repository.complaintsOfRide(this.#deps.db, rideId, readable === 'all' ? undefined : readable.filedBy);
    return rows.map(toComplaint);
  }

  /** Every complaint of a ride, oldest first (the operators' timeline of the ride). */
  async ofRide(rideId: number): Promise<Complaint[]> {
    return (await repository.complaintsOfRide(this.#deps.db, rideId)).map(toComplaint);
  }

  /** The operators' queue, newest first. */
  async list(query: ComplaintsQuery): Promise<{ items: Complaint[]; nextCursor: string | null }> {
    const page = toPage(query);
    const { items, nextCursor } = takePage(await repository.listComplaints(this.#deps.db, query.status, page), page.limit);
    return { items: items.map(toComplaint), nextCursor };
  }

  /**
   * An operator resolves an open complaint inside their transaction (with its audit entry); the
   * ride's parties are notified in the same transaction. The complaint before and after.
   */
  async resolve(tx: Tx, id: number, resolution: string, operatorId: number): Promise<{ before: Complaint; after: Complaint }> {
    const row = await repository.resolveComplaint(tx.db, id, resolution.trim(), operatorId, this.#deps.clock.now());
    if (!row) {
      if (!(await repository.findComplaint(tx.db, id))) throw notFound(`Complaint ${id} not found`);
      throw conflict(`Complaint ${id} is resolved already`, 'COMPLAINT_ALREADY_RESOLVED');
    }
    await this.#deps.notifications.record(tx, complaintResolved(row, await this.#deps.rides.parties(row.ride_id)));
    const after = toComplaint(row);
    // Only an open complaint is resolved, so before it had no resolution.
    return { before: { ...after, status: 'open', resolution: null, resolvedBy: null, resolvedAt: null }, after };
  }

  /** Inside an account's erasure: what the person wrote in their complaints goes; categories, times and resolutions stay. */
  eraseTextOf(tx: Tx, userId: number): Promise<void> {
    return repository.eraseMessagesOf(tx.db, userId);
  }
}

/**
 * The complainant reads the resolution; the ride's other party, if any, only learns that a report
 * about the ride was closed (what was said stays between the complainant and support).
 */
export function complaintResolved(complaint: repository.ComplaintRow, ride: RideParties): NewNotification[] {
  const notes: NewNotification[] = [
    {
      userId: complaint.filed_by,
      rideId: complaint.ride_id,
      eventType: 'COMPLAINT_RESOLVED',
      text: { name: 'complaintResolved', values: { complaintId: String(complaint.id), rideId: String(complaint.ride_id), resolution: complaint.resolution ?? '' } },
    },
  ];
  const other = complaint.party === 'rider' ? ride.driver_id : ride.rider_id;
  if (other !== null) {
    notes.push({
      userId: other,
      rideId: complaint.ride_id,
      eventType: 'COMPLAINT_RESOLVED',
      text: { name: 'reportClosed', values: { rideId: String(complaint.ride_id) } },
    });
  }
  return notes;
}

function toComplaint(row: repository.ComplaintRow): Complaint {
  return {
    id: row.id,
    rideId: row.ride_id,
    filedBy: row.filed_by,
    party: row.party as ComplainantParty,
    category: row.category as ComplaintCategory,
    message: row.message,
    status: row.status as ComplaintStatus,
    resolution: row.resolution,
    resolvedBy: row.resolved_by,
    resolvedAt: toIsoOrNull(row.resolved_at),
    createdAt: toIso(row.created_at),
  };
}
