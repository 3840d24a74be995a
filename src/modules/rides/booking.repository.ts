import { PostgresAdapter, sql, type Insertable } from 'kysely';
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
  'offer_count', 'pickup_distance_km', 'no_driver_at', 'pricing_version', 'refunded_amount',
] as const satisfies ReadonlyArray<keyof RidesTable>;
// A column added to the table and not to the list fails to compile here.
const everyRideColumn: Exclude<keyof RidesTable, (typeof RIDE_COLUMNS)[number]> extends never ? true : never = true;
void everyRideColumn;

/** What a booking writes; the rest of a ride's columns start empty (or at their defaults). */
const BOOKING_COLUMNS = [
  'rider_id', 'driver_id', 'status', 'ride_type', 'pickup_location', 'drop_location', 'pickup_lat', 'pickup_lon', 'drop_lat', 'drop_lon',
  'pickup_plus_code', 'drop_plus_code', 'pickup_zone', 'pickup_landmark', 'drop_landmark', 'distance_km', 'duration_minutes',
  'surge_multiplier', 'pricing_version', 'fare', 'payment_mode', 'payment_status', 'payment_reference', 'start_otp', 'end_otp', 'created_at',
] as const satisfies ReadonlyArray<keyof RidesTable>;
export type NewRide = { [K in (typeof BOOKING_COLUMNS)[number]]-?: Insertable<RidesTable>[K] };

type NewNotice = Omit<Insertable<NotificationsTable>, 'id' | 'ride_id'>;
const NOTICE_COLUMNS = ['user_id', 'title', 'message', 'channel', 'event_type', 'read', 'status', 'created_at', 'delivered_at'] as const satisfies ReadonlyArray<
  keyof NewNotice
>;
type NoticeParameters = { [K in (typeof NOTICE_COLUMNS)[number] as `notice_${K}`]-?: NewNotice[K] };
type BookingParameters = NewRide & NoticeParameters & { max_open: number };

/** The rider's open rides holding a slot: read through the partial index of open slots, never the rider's whole history. */
export const takenSlots = (db: Db, riderId: number) =>
  db.selectFrom('rides').where('rider_id', '=', riderId).where('status', 'in', literal(OPEN_STATUSES)).where('open_slot', 'is not', null);

/**
 * The rider's lowest free slot among 1..maxOpen (the smallest free one is 1 or a taken one + 1),
 * or 1 when all are taken, which then breaks the (rider, slot) unique index of open rides: so a
 * rider holds at most `maxOpen` open rides even when bookings race on PostgreSQL.
 */
function openSlot(db: Db, riderId: number, maxOpen: number) {
  const taken = () => takenSlots(db, riderId);
  const candidates = db
    .selectNoFrom(sql<number>`1`.as('candidate'))
    .unionAll(taken().select(sql<number>`open_slot + 1`.as('candidate')))
    .as('candidates');
  const free = db
    .selectFrom(candidates)
    .select((eb) => eb.fn.min<number>('candidate').as('slot'))
    .where('candidate', '<=', maxOpen)
    .where('candidate', 'not in', taken().select(sql<number>`open_slot`.as('slot')));
  return sql<number>`coalesce((${free}), 1)`;
}

const bookedRide = (db: Db, p: BookingParameters) => {
  const values = Object.fromEntries(BOOKING_COLUMNS.map((column) => [column, p[column]])) as NewRide;
  return db.insertInto('rides').values({ ...values, open_slot: openSlot(db, p.rider_id, p.max_open) });
};

/**
 * On PostgreSQL one statement (the notification in a CTE), so a booking costs one round trip instead
 * of four (BEGIN, two INSERTs, COMMIT): it runs without a transaction block, being atomic by itself.
 */
const bookOnPostgres = new PreparedStatement('book_ride', (db, p: BookingParameters) =>
  db
    .with('ride', () => bookedRide(db, p).returning(RIDE_COLUMNS))
    .with('notice', (q) =>
      q
        .insertInto('notifications')
        .columns(['user_id', 'ride_id', 'title', 'message', 'channel', 'event_type', 'read', 'status', 'created_at', 'delivered_at'])
        .expression((eb) =>
          eb.selectFrom('ride').select([
            sql<number>`${p.notice_user_id}::integer`.as('user_id'),
            'ride.id',
            sql<string>`${p.notice_title}::text`.as('title'),
            sql<string>`${p.notice_message}::text`.as('message'),
            sql<string>`${p.notice_channel}::text`.as('channel'),
            sql<string>`${p.notice_event_type}::text`.as('event_type'),
            sql<number>`${p.notice_read}::integer`.as('read'),
            sql<string>`${p.notice_status}::text`.as('status'),
            sql<number>`${p.notice_created_at}::bigint`.as('created_at'),
            sql<number | null>`${p.notice_delivered_at}::bigint`.as('delivered_at'),
          ]),
        )
        .returning('id'),
    )
    .selectFrom(['ride', 'notice'])
    .selectAll('ride')
    .select('notice.id as notice_id'),
);

/** On SQLite the ride, then its notification, inside the unit's transaction. */
const bookOnSqlite = new PreparedStatement('book_ride_row', (db, p: BookingParameters) => bookedRide(db, p).returning(RIDE_COLUMNS));
const noticeOnSqlite = new PreparedStatement('book_ride_notice', (db, p: NoticeParameters & { ride_id: number }) =>
  db
    .insertInto('notifications')
    .values({ ...(Object.fromEntries(NOTICE_COLUMNS.map((column) => [column, p[`notice_${column}`]])) as NewNotice), ride_id: p.ride_id })
    .returning('id'),
);

/**
 * Books a ride and writes its first notification (a row the notifications module made; only this
 * hot path writes it from here). Undefined when the rider's open-ride slots are all taken.
 */
export async function insertBooking(db: WriteDb, ride: NewRide, maxOpen: number, notice: NewNotice): Promise<{ ride: RideRow; noticeId: number } | undefined> {
  const noticeValues = Object.fromEntries(NOTICE_COLUMNS.map((column) => [`notice_${column}`, notice[column] ?? null])) as NoticeParameters;
  const parameters: BookingParameters = { ...ride, ...noticeValues, max_open: maxOpen };
  try {
    if (db.getExecutor().adapter instanceof PostgresAdapter) {
      const [row] = await bookOnPostgres.rows(db, parameters);
      if (!row) throw new Error('the booking statement returned no row');
      const { notice_id: noticeId, ...booked } = row;
      return { ride: booked, noticeId };
    }
    const [booked] = await bookOnSqlite.rows(db, parameters);
    const [{ id: noticeId }] = await noticeOnSqlite.rows(db, { ...noticeValues, ride_id: booked.id });
    return { ride: booked, noticeId };
  } catch (error) {
    if (isSlotTaken(error)) return undefined;
    throw error;
  }
}

/** The rider's open rides are at their limit, or a concurrent booking took the same slot. */
function isSlotTaken(error: unknown): boolean {
  const { message, constraint } = (error ?? {}) as { message?: unknown; constraint?: unknown };
  return constraint === 'rides_open_slot_per_rider' || (typeof message === 'string' && message.includes('rides.open_slot'));
}
