import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';
import { inDispatch, literal } from './rides.repository.ts';
import { ACTIVE_STATUSES, RIDE_STATUSES, type RideStatus } from './rides.schemas.ts';

// Counts over the rides table for insights' demand model and the operators' overview: indexed columns only.

/** Rides in REQUESTED waiting for a driver now (not those booked ahead still waiting for their time), and the distinct riders who hold them. */
export async function openRequests(db: Db): Promise<{ rides: number; riders: number }> {
  const row = await db
    .selectFrom('rides')
    .select((eb) => [eb.fn.countAll<number>().as('rides'), eb.fn.count<number>('rider_id').distinct().as('riders')])
    .where('status', '=', 'REQUESTED')
    .where(inDispatch)
    .executeTakeFirstOrThrow();
  return { rides: Number(row.rides), riders: Number(row.riders) };
}

/** Rides booked ahead still waiting for their time, and how many of them a driver took ahead (rides_scheduled_waiting). */
export async function bookedAhead(db: Db): Promise<{ waiting: number; taken: number }> {
  const row = await db
    .selectFrom('rides')
    .select((eb) => [eb.fn.countAll<number>().as('waiting'), eb.fn.count<number>('driver_id').as('taken')])
    .where('scheduled_at', 'is not', null)
    .where('released_at', 'is', null)
    .where('status', '=', 'REQUESTED')
    .executeTakeFirstOrThrow();
  return { waiting: Number(row.waiting), taken: Number(row.taken) };
}

/** Drivers on an ACCEPTED or PICKED ride (at most one each). */
export async function countBusyDrivers(db: Db): Promise<number> {
  const row = await db.selectFrom('rides').select((eb) => eb.fn.countAll<number>().as('count')).where('status', 'in', literal(ACTIVE_STATUSES)).executeTakeFirstOrThrow();
  return Number(row.count);
}

/**
 * Rides booked since `since` per status now, and the fares of the completed ones. One range of the
 * index rides_created_status_fare holds all of it; counting per status in the select list rather
 * than grouping keeps SQLite from walking the whole status index in group order instead.
 */
export async function bookedSince(db: Db, since: number): Promise<{ rides: Record<RideStatus, number>; completedFares: number }> {
  const row = await db
    .selectFrom('rides')
    .select((eb) => [
      ...RIDE_STATUSES.map((status) => eb.fn.coalesce(eb.fn.sum<number>(eb.case().when('status', '=', status).then(eb.lit(1)).else(eb.lit(0)).end()), eb.lit(0)).as(status)),
      eb.fn.coalesce(eb.fn.sum<number>(eb.case().when('status', '=', 'COMPLETED').then(eb.ref('fare')).else(eb.lit(0)).end()), eb.lit(0)).as('completed_fares'),
    ])
    .where('created_at', '>=', since)
    .executeTakeFirstOrThrow();
  const counts = row as unknown as Record<RideStatus | 'completed_fares', number | string>;
  return {
    rides: Object.fromEntries(RIDE_STATUSES.map((status) => [status, Number(counts[status])])) as Record<RideStatus, number>,
    completedFares: Number(counts.completed_fares),
  };
}

/** Rides accepted since `since` and their mean wait from booking; rides picked up since then and their mean wait from acceptance. */
export async function waitsSince(db: Db, since: number): Promise<{ accepted: number; acceptDelayMs: number | null; picked: number; pickupMs: number | null }> {
  const [accepted, picked] = await Promise.all([
    db
      .selectFrom('rides')
      .select((eb) => [eb.fn.countAll<number>().as('rides'), eb.fn.avg<number | null>(sql<number>`accepted_at - created_at`).as('mean')])
      .where('accepted_at', '>=', since)
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('rides')
      .select((eb) => [eb.fn.countAll<number>().as('rides'), eb.fn.avg<number | null>(sql<number>`picked_at - accepted_at`).as('mean')])
      .where('picked_at', '>=', since)
      .executeTakeFirstOrThrow(),
  ]);
  const mean = (value: number | null) => (value === null ? null : Number(value));
  return { accepted: Number(accepted.rides), acceptDelayMs: mean(accepted.mean), picked: Number(picked.rides), pickupMs: mean(picked.mean) };
}

/**
 * Drivers with ride activity since `since`: on a ride now, or accepted, finished or lost one since.
 * (Picking up and reporting positions happen between accepting and finishing.)
 */
export async function driversActiveSince(db: Db, since: number): Promise<number[]> {
  // UNION ALL then DISTINCT: a plain UNION lets SQLite merge ordered walks of the whole driver index.
  const driversWhere = (column: 'accepted_at' | 'completed_at' | 'cancelled_at') => db.selectFrom('rides').select('driver_id').where(column, '>=', since);
  const activity = driversWhere('accepted_at')
    .unionAll(driversWhere('completed_at'))
    .unionAll(driversWhere('cancelled_at'))
    .unionAll(db.selectFrom('rides').select('driver_id').where('status', 'in', literal(ACTIVE_STATUSES)))
    .as('activity');
  const rows = await db.selectFrom(activity).select('driver_id').distinct().execute();
  // Rides cancelled before any driver took them have none.
  return rows.flatMap((row) => (row.driver_id === null ? [] : [row.driver_id]));
}

/** What a compliance check reads of a ride booked in a period: a page of them after `afterId`, by id. */
export async function pricedBetween(db: Db, from: number, to: number, afterId: number, limit: number) {
  const rows = await db
    .selectFrom('rides')
    .select(['id', 'ride_type', 'pricing_version', 'fare', 'surge_multiplier', 'cancelled_by', 'cancellation_reason', 'cancellation_fee', 'driver_penalty'])
    .where('created_at', '>=', from)
    .where('created_at', '<', to)
    .where('id', '>', afterId)
    .orderBy('id')
    .limit(limit)
    .execute();
  return rows.map((row) => ({ ...row, surge_multiplier: Number(row.surge_multiplier) }));
}

/** Rides booked in [from, to), at most `limit`, newest first: where to and when, when each stopped waiting for a driver and how, and its price. */
export function requestsBetween(db: Db, from: number, to: number, limit: number) {
  return db
    .selectFrom('rides')
    .select(['id', 'rider_id', 'ride_type', 'pickup_lat', 'pickup_lon', 'drop_lat', 'drop_lon', 'created_at', 'released_at', 'scheduled_at', 'accepted_at', 'completed_at', 'cancelled_at', 'cancelled_by', 'no_driver_at', 'duration_minutes', 'fare', 'surge_multiplier', 'pricing_version'])
    .where('created_at', '>=', from)
    .where('created_at', '<', to)
    .orderBy('created_at', 'desc')
    .limit(limit)
    .execute();
}
