import type { Insertable, Selectable } from 'kysely';
import type { Db, PaymentSessionsTable, WriteDb } from '../../db/database.ts';

export type SessionRow = Selectable<PaymentSessionsTable>;

export async function insertSession(db: WriteDb, session: Insertable<PaymentSessionsTable>): Promise<void> {
  await db.insertInto('payment_sessions').values(session).execute();
}

export function findSession(db: Db, id: string): Promise<SessionRow | undefined> {
  return db.selectFrom('payment_sessions').selectAll().where('id', '=', id).executeTakeFirst();
}

export function findSessionByOrder(db: Db, orderId: string): Promise<SessionRow | undefined> {
  return db.selectFrom('payment_sessions').selectAll().where('order_id', '=', orderId).executeTakeFirst();
}

/** pending or failed → completed; true for exactly one caller, never for a completed session. */
export async function completeSession(db: WriteDb, id: string, paymentId: string, paymentMode: string | null, now: number): Promise<boolean> {
  const result = await db
    .updateTable('payment_sessions')
    .set((eb) => ({ status: 'completed', payment_id: paymentId, payment_mode: eb.fn.coalesce(eb.val(paymentMode), eb.ref('payment_mode')), updated_at: now }))
    .where('id', '=', id)
    .where('status', '!=', 'completed')
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** pending → failed; a completed session never goes back. */
export async function failSession(db: WriteDb, id: string, now: number): Promise<boolean> {
  const result = await db
    .updateTable('payment_sessions')
    .set({ status: 'failed', updated_at: now })
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** Remembers a webhook event id; false when it was seen before. */
export async function recordWebhookEvent(db: WriteDb, eventId: string, eventType: string, now: number): Promise<boolean> {
  const row = await db
    .insertInto('webhook_events')
    .values({ event_id: eventId, event_type: eventType, received_at: now })
    .onConflict((oc) => oc.column('event_id').doNothing())
    .returning('event_id')
    .executeTakeFirst();
  return row !== undefined;
}

/** Every session linked to a ride, oldest first. */
export function sessionsOfRide(db: Db, rideId: number): Promise<SessionRow[]> {
  return db.selectFrom('payment_sessions').selectAll().where('ride_id', '=', rideId).orderBy('created_at').orderBy('id').execute();
}

/** Sessions completed since `since` and their amount in paise (read from the index payment_sessions_status_updated). */
export async function completedSince(db: Db, since: number): Promise<{ count: number; paise: number }> {
  const row = await db
    .selectFrom('payment_sessions')
    .select((eb) => [eb.fn.countAll<number>().as('count'), eb.fn.coalesce(eb.fn.sum<number>('amount'), eb.lit(0)).as('paise')])
    .where('status', '=', 'completed')
    .where('updated_at', '>=', since)
    .executeTakeFirstOrThrow();
  return { count: Number(row.count), paise: Number(row.paise) };
}

/** Forgets what an erased payer typed (the summary of their rides' orders); amounts and ids stay for accounting. */
export async function eraseTextOf(db: WriteDb, userId: number): Promise<void> {
  await db.updateTable('payment_sessions').set({ ride_summary: null }).where('user_id', '=', userId).where('ride_summary', 'is not', null).execute();
}
