import type { Insertable, Selectable } from 'kysely';
import type { Db, RefundsTable, WriteDb } from '../../db/database.ts';

export type RefundRow = Selectable<RefundsTable>;

export function insertRefund(db: WriteDb, refund: Insertable<RefundsTable>): Promise<RefundRow> {
  return db.insertInto('refunds').values(refund).returningAll().executeTakeFirstOrThrow();
}

export function refundsOfRide(db: Db, rideId: number): Promise<RefundRow[]> {
  return db.selectFrom('refunds').selectAll().where('ride_id', '=', rideId).orderBy('id').execute();
}

export function findRefund(db: Db, id: number): Promise<RefundRow | undefined> {
  return db.selectFrom('refunds').selectAll().where('id', '=', id).executeTakeFirst();
}

/** By the key it was sent with (also its receipt at the provider, so provider events name it). */
export function findRefundByKey(db: Db, idempotencyKey: string): Promise<RefundRow | undefined> {
  return db.selectFrom('refunds').selectAll().where('idempotency_key', '=', idempotencyKey).executeTakeFirst();
}

/** Queued refunds whose next attempt is due, oldest first. */
export function dueRefunds(db: Db, now: number, limit: number): Promise<Array<Pick<RefundRow, 'id' | 'attempts'>>> {
  return db
    .selectFrom('refunds')
    .select(['id', 'attempts'])
    .where('status', '=', 'queued')
    .where('next_attempt_at', '<=', now)
    .orderBy('next_attempt_at')
    .limit(limit)
    .execute();
}

/**
 * Takes the next attempt of a queued refund and sets when the one after may start: true for exactly
 * one caller among instances, so two of them never send the same refund at the same moment.
 */
export async function claimAttempt(db: WriteDb, id: number, attempts: number, now: number, retryAt: number): Promise<boolean> {
  const result = await db
    .updateTable('refunds')
    .set({ attempts: attempts + 1, next_attempt_at: retryAt, updated_at: now })
    .where('id', '=', id)
    .where('status', '=', 'queued')
    .where('attempts', '=', attempts)
    .where('next_attempt_at', '<=', now)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

// A refund only moves forward: queued → pending → processed, or to failed before it is processed.
const MOVES_FROM: Record<'pending' | 'processed' | 'failed', string[]> = {
  pending: ['queued'],
  processed: ['queued', 'pending'],
  failed: ['queued', 'pending'],
};

/** What the provider said of a refund; the row when this call moved it on (answers arrive in any order). */
export function setRefundOutcome(
  db: WriteDb,
  id: number,
  outcome: { status: keyof typeof MOVES_FROM; provider_refund_id?: string; last_error?: string | null },
  now: number,
): Promise<RefundRow | undefined> {
  return db
    .updateTable('refunds')
    .set({ ...outcome, updated_at: now })
    .where('id', '=', id)
    .where('status', 'in', MOVES_FROM[outcome.status])
    .returningAll()
    .executeTakeFirst();
}

export async function noteAttemptFailed(db: WriteDb, id: number, error: string, now: number): Promise<void> {
  await db.updateTable('refunds').set({ last_error: error.slice(0, 500), updated_at: now }).where('id', '=', id).execute();
}
