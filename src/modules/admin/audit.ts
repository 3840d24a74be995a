import type { Db } from '../../db/database.ts';
import type { Tx } from '../../db/transaction.ts';
import type { AuditChange, AuditLog } from '../../platform/audit.ts';
import { toIso, type Clock } from '../../platform/clock.ts';
import { takePage, toPage } from '../../platform/pagination.ts';
import type { AuditEntry, AuditQuery } from './admin.schemas.ts';

/** The operators' audit trail (table audit_log), newest first; every module records its operators' actions here. */
export class AuditTrail implements AuditLog {
  readonly #db: Db;
  readonly #clock: Clock;

  constructor(deps: { db: Db; clock: Clock }) {
    this.#db = deps.db;
    this.#clock = deps.clock;
  }

  async record(tx: Tx, change: AuditChange): Promise<void> {
    await tx.db
      .insertInto('audit_log')
      .values({
        actor_id: change.actor.id,
        action: change.action,
        target_type: change.target.type,
        target_id: String(change.target.id),
        before: change.before === undefined ? null : JSON.stringify(change.before),
        after: change.after === undefined ? null : JSON.stringify(change.after),
        request_id: change.actor.requestId,
        client_request_id: change.actor.clientRequestId,
        created_at: this.#clock.now(),
      })
      .execute();
  }

  /** Who did what to one target, oldest first (a ride's timeline names the operators of its steps). */
  async about(type: string, id: number | string): Promise<Array<{ action: string; actorId: number }>> {
    const rows = await this.#db.selectFrom('audit_log').select(['action', 'actor_id']).where('target_type', '=', type).where('target_id', '=', String(id)).orderBy('id').execute();
    return rows.map((row) => ({ action: row.action, actorId: row.actor_id }));
  }

  async list(query: AuditQuery): Promise<{ items: AuditEntry[]; nextCursor: string | null }> {
    const page = toPage(query);
    let select = this.#db.selectFrom('audit_log').selectAll().orderBy('id', 'desc').limit(page.limit + 1);
    if (page.beforeId !== undefined) select = select.where('id', '<', page.beforeId);
    if (query.actorId !== undefined) select = select.where('actor_id', '=', query.actorId);
    if (query.action !== undefined) select = select.where('action', '=', query.action);
    if (query.targetType !== undefined) select = select.where('target_type', '=', query.targetType);
    if (query.targetId !== undefined) select = select.where('target_id', '=', query.targetId);
    const { items, nextCursor } = takePage(await select.execute(), page.limit);
    return {
      items: items.map((row) => ({
        id: row.id,
        actorId: row.actor_id,
        action: row.action,
        target: { type: row.target_type, id: row.target_id },
        before: row.before === null ? null : (JSON.parse(row.before) as unknown),
        after: row.after === null ? null : (JSON.parse(row.after) as unknown),
        requestId: row.request_id,
        clientRequestId: row.client_request_id,
        at: toIso(Number(row.created_at)),
      })),
      nextCursor,
    };
  }
}
