import type { Db } from '../../db/database.ts';
import type { Tx } from '../../db/transaction.ts';
import { toIso, type Clock } from '../../platform/clock.ts';
import { takePage, toPage } from '../../platform/pagination.ts';
import type { AuditEntry, AuditQuery } from './admin.schemas.ts';

/** What an operator changed: recorded inside the transaction that makes the change, so neither exists without the other. */
export interface AuditChange {
  actorId: number;
  /** A verb of the form `<thing>.<verb>`: `user.create`, `user.block`, `pricing.update`, … */
  action: string;
  target: { type: string; id: string | number };
  before?: unknown;
  after?: unknown;
  requestId?: string;
}

/** The operators' audit trail (table audit_log), newest first. */
export class AuditTrail {
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
        actor_id: change.actorId,
        action: change.action,
        target_type: change.target.type,
        target_id: String(change.target.id),
        before: change.before === undefined ? null : JSON.stringify(change.before),
        after: change.after === undefined ? null : JSON.stringify(change.after),
        request_id: change.requestId ?? null,
        created_at: this.#clock.now(),
      })
      .execute();
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
        at: toIso(Number(row.created_at)),
      })),
      nextCursor,
    };
  }
}
