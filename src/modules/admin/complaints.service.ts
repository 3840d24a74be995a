import type { Transactions } from '../../db/transaction.ts';
import type { Actor } from '../../platform/audit.ts';
import type { Complaint, ComplaintsQuery } from '../complaints/complaints.schemas.ts';
import type { ComplaintsService } from '../complaints/complaints.service.ts';
import type { AuditTrail } from './audit.ts';

/** What an audit entry keeps of a complaint: its state, not the complainant's words. */
const resolutionState = ({ status, resolution, resolvedBy, resolvedAt }: Complaint) => ({ status, resolution, resolvedBy, resolvedAt });

/** The support queue: complaints by status, and an operator's resolution. */
export class AdminComplaints {
  readonly #transactions: Transactions;
  readonly #complaints: Pick<ComplaintsService, 'list' | 'resolve'>;
  readonly #audit: Pick<AuditTrail, 'record'>;

  constructor(deps: { transactions: Transactions; complaints: Pick<ComplaintsService, 'list' | 'resolve'>; audit: Pick<AuditTrail, 'record'> }) {
    this.#transactions = deps.transactions;
    this.#complaints = deps.complaints;
    this.#audit = deps.audit;
  }

  list(query: ComplaintsQuery): Promise<{ items: Complaint[]; nextCursor: string | null }> {
    return this.#complaints.list(query);
  }

  /** The resolution, the parties' notifications and the audit entry commit together. */
  resolve(actor: Actor, id: number, resolution: string): Promise<Complaint> {
    return this.#transactions.run(async (tx) => {
      const { before, after } = await this.#complaints.resolve(tx, id, resolution, actor.id);
      await this.#audit.record(tx, { actor, action: 'complaint.resolve', target: { type: 'complaint', id }, before: resolutionState(before), after: resolutionState(after) });
      return after;
    });
  }
}
