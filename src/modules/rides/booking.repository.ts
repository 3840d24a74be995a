import { PostgresAdapter, sql, type Expression, type Insertable } from 'kysely';
import type { Db, NotificationsTable, RidesTable, WriteDb } from '../../db/database.ts';
import { PreparedStatement } from '../../db/prepared.ts';
import { literal, type RideRow } from './rides.repository.ts';
import { OPEN_STATUSES } from './rides.schemas.ts';

// The booking's writes: the hot path of the service, so its statements are prepared once (db/prepared.ts).

/** Every column of a ride, named: statements prepared once list what they return (db/prepared.ts). */
const RIDE_COLUMNS = [
  'id', 'rider_id', 'driver_id', 'status', 'ride_type', 'pickup_location', 'drop_location', 'pickup_lat', 'pickup_lon', 'drop_lat', 'drop_lon',
  'pickup_plus_code', 'drop_plus_code', 'pickup_landmark', 'drop_landmark', 'distance_km', 'duration_minutes', 'surge_multiplier', 'fare',
  'payment_mode', 'payment_status', 'payment_reference', 'start_otp', 'end_otp', 'created_at', 'accepted_at', 'picked_at', 'completed_at',
  'cancelled_at', 'driver_lat', 'driver_lon', 'driver_location_updated_at', 'arriving_notified_at', 'cancellation_reason', 'cancelled_by',
  'cancellation_fee', 'rider_rating', 'rider_feedback', 'driver_rating', 'driver_feedback', 'open_slot', 'pickup_zone', 'first_offer_at',
  'offer_count', 'pickup_distance_km', 'no_driver_at', 'pricing_version', 'refunded_amount', 'arrived_at', 'trip_distance_km', 'trip_last_lat',
  'trip_last_lon', 'charges_total', 'trip_charges', 'upfront_fare', 'fare_breakdown', 'driver_penalty', 'stops',
  'scheduled_at', 'released_at', 'destination_changes', 'reminders_sent',
] as const satisfies ReadonlyArray<keyof RidesTable>;
// A column added to the table and not to the list fails to compile here.
const everyRideColumn: Exclude<keyof RidesTable, (typeof RIDE_COLUMNS)[number]> extends never ? true : never = true;
void everyRideColumn;

/** What a booking writes; the rest of a ride's columns start empty (or at their defaults). */
const BOOKING_COLUMNS = [
  'rider_id', 'driver_id', 'status', 'ride_type', 'pickup_location', 'drop_location', 'pickup_lat', 'pickup_lon', 'drop_lat', 'drop_lon',
  'pickup_plus_code', 'drop_plus_code', 'pickup_zone', 'pickup_landmark', 'drop_landmark', 'distance_km', 'duration_minutes',
  'surge_multiplier', 'pricing_version', 'fare', 'payment_mode', 'payment_status', 'payment_reference', 'start_otp', 'end_otp', 'created_at',
  'stops', 'scheduled_at',
] as const satisfies ReadonlyArray<keyof RidesTable>;
export type NewRide = { [K in (typeof BOOKING_COLUMNS)[number]]-?: Insertable<RidesTable>[K] };

export type NewNotice = Omit<Insertable<NotificationsTable>, 'id' | 'ride_id'>;
const NOTICE_COLUMNS = ['user_id', 'title', 'message', 'text_name', 'text_values', 'channel', 'event_type', 'read', 'status', 'created_at', 'delivered_at'] as const satisfies ReadonlyArray<
  keyof NewNotice
>;

/** A ride to book and the notice telling its rider. */
export interface Booking {
  ride: NewRide;
  notice: NewNotice;
}
export interface SavedBooking {
  ride: RideRow;
  noticeId: number;
}

/** The rider's open rides holding a slot: read through the partial index of open slots, never the rider's whole history. */
export const takenSlots = (db: Db, riderId: Expression<number> | number) =>
  db.selectFrom('rides').where('rider_id', '=', riderId).where('status', 'in', literal(OPEN_STATUSES)).where('open_slot', 'is not', null);

/**
 * The rider's lowest free slot among 1..maxOpen, no row when all are taken. The taken slots are
 * distinct, so read in order through the index the first free one is the first position whose slot
 * is not its own number (or the one after the last): one pass over the rider's open rides. A unique
 * index over (rider, slot) of open rides makes two bookings that race for one slot on PostgreSQL
 * fail rather than both succeed, so a rider never holds more than `maxOpen` open rides.
 */
function freeSlot(db: Db, riderId: Expression<number> | number, maxOpen: number) {
  const inOrder = takenSlots(db, riderId).select(['open_slot', sql<number>`row_number() over (order by open_slot)`.as('nth')]);
  const firstGap = db
    .selectFrom(inOrder.as('taken'))
    .select(sql<number>`coalesce(min(case when open_slot <> nth then nth end), count(*) + 1)`.as('slot'));
  return db.selectFrom(firstGap.as('first_gap')).select('slot').where('slot', '<=', maxOpen);
}

/**
 * PostgreSQL: every booking of the batch, and its notice, in one statement (atomic by itself, so
 * it needs no transaction block): one round trip, one plan and one commit for the lot, which is what
 * lets PostgreSQL keep up with many bookings a second. The rows arrive as JSON and take the tables'
 * own column types. A rider at their limit gets no row; the batch holds at most one booking per
 * rider, since rows of one statement do not see each other's slots.
 */
const bookOnPostgres = new PreparedStatement('book_rides', (db, p: { rides: string; notices: string; max_open: number }) =>
  db
    .with('booking', (q) => q.selectFrom(sql<NewRide>`json_populate_recordset(null::rides, ${p.rides}::json)`.as('booking')).selectAll())
    .with('ride', (q) =>
      q
        .insertInto('rides')
        .columns([...BOOKING_COLUMNS, 'open_slot'])
        .expression((eb) =>
          eb
            .selectFrom('booking')
            .innerJoinLateral(() => freeSlot(db, sql.ref<number>('booking.rider_id'), p.max_open).as('free'), (on) => on.onTrue())
            .select([...BOOKING_COLUMNS.map((column) => `booking.${column}` as const), 'free.slot']),
        )
        .returning(RIDE_COLUMNS),
    )
    .with('notice', (q) =>
      q
        .insertInto('notifications')
        .columns(['ride_id', ...NOTICE_COLUMNS])
        .expression((eb) =>
          eb
            .selectFrom(sql<NewNotice>`json_populate_recordset(null::notifications, ${p.notices}::json)`.as('notice'))
            .innerJoin('ride', 'ride.rider_id', 'notice.user_id')
            .select(['ride.id', ...NOTICE_COLUMNS.map((column) => `notice.${column}` as const)]),
        )
        .returning(['id', 'user_id']),
    )
    .selectFrom(['ride', 'notice'])
    .whereRef('notice.user_id', '=', 'ride.rider_id')
    .selectAll('ride')
    .select('notice.id as notice_id'),
);

/**
 * SQLite: one booking. With every slot taken the statement takes slot 1 again and breaks the unique
 * index (an error the writer turns into "no slot"), which SQLite runs faster than leaving the row out.
 */
const bookOnSqlite = new PreparedStatement('book_ride_row', (db, p: NewRide & { max_open: number }) =>
  db
    .insertInto('rides')
    .values({ ...(Object.fromEntries(BOOKING_COLUMNS.map((column) => [column, p[column]])) as NewRide), open_slot: sql<number>`coalesce((${freeSlot(db, p.rider_id, p.max_open)}), 1)` })
    .returning(RIDE_COLUMNS),
);
const noticeOnSqlite = new PreparedStatement('book_ride_notice', (db, p: NewNotice & { ride_id: number }) =>
  db
    .insertInto('notifications')
    .values({ ...(Object.fromEntries(NOTICE_COLUMNS.map((column) => [column, p[column]])) as NewNotice), ride_id: p.ride_id })
    .returning('id'),
);

/**
 * Books the rides and writes their first notices (rows the notifications module made; only this hot
 * path writes them from here): for each booking what was saved, or, on PostgreSQL, undefined when the
 * rider's open-ride slots are all taken. On PostgreSQL the bookings must be of different riders, and a
 * race for a slot with another instance fails the whole statement; on SQLite a rider at their limit
 * fails it (isSlotTaken either way: the caller tries the bookings alone).
 */
export async function insertBookings(db: WriteDb, bookings: readonly Booking[], maxOpen: number): Promise<Array<SavedBooking | undefined>> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    if (new Set(bookings.map((booking) => booking.ride.rider_id)).size !== bookings.length) throw new Error('one booking per rider per statement');
    const rows = await bookOnPostgres.rows(db, {
      rides: JSON.stringify(bookings.map((booking) => booking.ride)),
      notices: JSON.stringify(bookings.map((booking) => booking.notice)),
      max_open: maxOpen,
    });
    const byRider = new Map(rows.map(({ notice_id: noticeId, ...ride }) => [ride.rider_id, { ride, noticeId }]));
    return bookings.map((booking) => byRider.get(booking.ride.rider_id));
  }
  const saved: Array<SavedBooking | undefined> = [];
  for (const { ride, notice } of bookings) {
    const [booked] = await bookOnSqlite.rows(db, { ...ride, max_open: maxOpen });
    const [{ id: noticeId }] = await noticeOnSqlite.rows(db, { ...notice, ride_id: booked.id });
    saved.push({ ride: booked, noticeId });
  }
  return saved;
}

/** The booking found no free slot: all taken (SQLite), or taken by a booking on another instance at the same moment (PostgreSQL). */
export function isSlotTaken(error: unknown): boolean {
  const { message, constraint } = (error ?? {}) as { message?: unknown; constraint?: unknown };
  return constraint === 'rides_open_slot_per_rider' || (typeof message === 'string' && message.includes('rides.open_slot'));
}
