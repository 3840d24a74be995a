import { sql, type ExpressionBuilder } from 'kysely';
import type { Database, Db, WriteDb } from '../../db/database.ts';
import type { RideType } from '../../platform/vocabulary.ts';
import type { RideRow } from './rides.repository.ts';

// The queries of rides booked ahead (ride-schedule*.ts). A ride booked ahead waits with
// `released_at` null; a driver who accepts it ahead holds it as its `driver_id` while it is still
// REQUESTED; it leaves the wait once (released_at set) into dispatch, or to that driver as ACCEPTED.

/** Rides waiting for their time, not taken ahead: the partial index rides_scheduled_waiting finds them. */
const waiting = (db: Db | WriteDb) =>
  db.selectFrom('rides').where('scheduled_at', 'is not', null).where('released_at', 'is', null).where('status', '=', 'REQUESTED');

/**
 * Claims the rides booked ahead, not taken by a driver, whose time is within the lead
 * (`scheduled_at <= dueBy`) and moves them into dispatch, at most `limit`: one conditional statement,
 * so of instances claiming at once each ride goes to exactly one (the other finds `released_at` set).
 */
export function releaseDue(db: WriteDb, dueBy: number, now: number, limit: number): Promise<RideRow[]> {
  const due = waiting(db).select('id').where('driver_id', 'is', null).where('scheduled_at', '<=', dueBy).orderBy('scheduled_at').limit(limit);
  return db
    .updateTable('rides')
    .set({ released_at: now })
    .where('id', 'in', due)
    .where('released_at', 'is', null)
    .where('driver_id', 'is', null)
    .where('status', '=', 'REQUESTED')
    .returningAll()
    .execute();
}

/** Rides taken ahead whose driver is to be checked now (`scheduled_at <= dueBy`), soonest first. */
export function takenDue(db: Db, dueBy: number, limit: number): Promise<RideRow[]> {
  return waiting(db).selectAll().where('driver_id', 'is not', null).where('scheduled_at', '<=', dueBy).orderBy('scheduled_at').limit(limit).execute();
}

/**
 * The driver who took the ride ahead is there: it becomes ACCEPTED for them, in one conditional
 * statement (once, whichever instance gets there first), unless they are on another ride now.
 */
export function confirmTaken(db: WriteDb, id: number, driverId: number, now: number): Promise<RideRow | undefined> {
  return db
    .updateTable('rides')
    .set({ status: 'ACCEPTED', accepted_at: now, released_at: now })
    .where('id', '=', id)
    .where('driver_id', '=', driverId)
    .where('released_at', 'is', null)
    .where('status', '=', 'REQUESTED')
    .where((eb) => eb.not(eb.exists(eb.selectFrom('rides as busy').select('busy.id').where('busy.driver_id', '=', driverId).where('busy.status', 'in', [sql.lit('ACCEPTED'), sql.lit('PICKED')]))))
    .returningAll()
    .executeTakeFirst();
}

/** The driver who took the ride ahead is not there: the ride leaves them and enters dispatch (once). */
export function dropTaken(db: WriteDb, id: number, driverId: number, now: number): Promise<RideRow | undefined> {
  return db
    .updateTable('rides')
    .set({ driver_id: null, released_at: now })
    .where('id', '=', id)
    .where('driver_id', '=', driverId)
    .where('released_at', 'is', null)
    .where('status', '=', 'REQUESTED')
    .returningAll()
    .executeTakeFirst();
}

/** What the upcoming list filters a ride by: the types the driver's vehicle serves, a box around where the driver is. */
export interface UpcomingFilter {
  rideTypes: readonly RideType[];
  box: { minLat: number; maxLat: number; minLon: number; maxLon: number };
  after: number;
  limit: number;
}

/** Rides booked ahead no driver has taken, of these types, picking up in the box, soonest first. */
export function listUpcoming(db: Db, filter: UpcomingFilter): Promise<RideRow[]> {
  const { box } = filter;
  return waiting(db)
    .selectAll()
    .where('driver_id', 'is', null)
    .where('scheduled_at', '>', filter.after)
    .where('ride_type', 'in', filter.rideTypes)
    .where('pickup_lat', '>=', box.minLat)
    .where('pickup_lat', '<=', box.maxLat)
    .where('pickup_lon', '>=', box.minLon)
    .where('pickup_lon', '<=', box.maxLon)
    .orderBy('scheduled_at')
    .limit(filter.limit)
    .execute();
}

/** The rides the driver took ahead and still holds (waiting, or ACCEPTED for their time), soonest first. */
export function takenBy(db: Db, driverId: number): Promise<RideRow[]> {
  return db
    .selectFrom('rides')
    .selectAll()
    .where('driver_id', '=', driverId)
    .where('scheduled_at', 'is not', null)
    .where('status', 'in', [sql.lit('REQUESTED'), sql.lit('ACCEPTED')])
    .orderBy('scheduled_at')
    .execute();
}

/**
 * The driver takes a ride ahead, in one conditional statement: still waiting, untaken, and not
 * overlapping another ride booked ahead they hold (each ride's time from `marginMs` before its pickup
 * to `marginMs` after its expected drop, at its quoted minutes). The caller holds the driver's lock,
 * so two takes of one driver on PostgreSQL see each other. The ride, or undefined.
 */
export function take(db: WriteDb, id: number, driverId: number, marginMs: number): Promise<RideRow | undefined> {
  return db
    .updateTable('rides')
    .set({ driver_id: driverId })
    .where('id', '=', id)
    .where('driver_id', 'is', null)
    .where('released_at', 'is', null)
    .where('status', '=', 'REQUESTED')
    .where('scheduled_at', 'is not', null)
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom('rides as held')
            .select('held.id')
            .where('held.driver_id', '=', driverId)
            .where('held.status', 'in', [sql.lit('REQUESTED'), sql.lit('ACCEPTED')])
            .where('held.scheduled_at', 'is not', null)
            .where(sql<boolean>`held.scheduled_at < rides.scheduled_at + rides.duration_minutes * 60000 + ${marginMs}`)
            .where(sql<boolean>`rides.scheduled_at < held.scheduled_at + held.duration_minutes * 60000 + ${marginMs}`),
        ),
      ),
    )
    .returningAll()
    .executeTakeFirst();
}

/**
 * Claims the reminders due (REMINDERS_MS before each ride's time, rides REQUESTED or ACCEPTED whose
 * time is still ahead), at most `limit` rides: one conditional statement moves each ride's count to the
 * latest reminder due (a ride booked 40 minutes ahead gets the 60-minute one at once, then the 15-minute
 * one), so of instances claiming at once each reminder goes to exactly one. The rides claimed.
 */
export function claimReminders(db: WriteDb, now: number, remindersMs: readonly [number, number], limit: number): Promise<RideRow[]> {
  const [first, second] = remindersMs;
  const due = (eb: ExpressionBuilder<Database, 'rides'>) =>
    eb.and([
      eb('scheduled_at', 'is not', null),
      eb('scheduled_at', '>', now),
      eb('status', 'in', [sql.lit('REQUESTED'), sql.lit('ACCEPTED')]),
      eb.or([eb.and([eb('reminders_sent', '<', 1), eb('scheduled_at', '<=', now + first)]), eb.and([eb('reminders_sent', '<', 2), eb('scheduled_at', '<=', now + second)])]),
    ]);
  const ids = db.selectFrom('rides').select('id').where('scheduled_at', 'is not', null).where('reminders_sent', '<', 2).where(due).orderBy('scheduled_at').limit(limit);
  return db
    .updateTable('rides')
    .set((eb) => ({ reminders_sent: eb.case().when('scheduled_at', '<=', now + second).then(2).else(1).end() }))
    .where('id', 'in', ids)
    .where(due)
    .returningAll()
    .execute();
}
