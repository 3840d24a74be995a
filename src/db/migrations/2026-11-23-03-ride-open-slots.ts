import { sql, type Kysely } from 'kysely';

// Frozen once released. A rider holds at most MAX_OPEN_RIDES_PER_RIDER open rides: each open ride
// takes one of the rider's numbered slots, and a unique index over (rider, slot) of open rides makes
// a concurrent booking that picked a taken slot fail instead of exceeding the limit.

const OPEN = sql`('REQUESTED', 'ACCEPTED', 'PICKED')`;

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('rides').addColumn('open_slot', 'integer').execute();
  // Open rides from before get slots 1, 2, … per rider in booking order.
  await sql`
    update rides set open_slot = (
      select count(*) from rides earlier
      where earlier.rider_id = rides.rider_id and earlier.status in ${OPEN} and earlier.id <= rides.id
    )
    where status in ${OPEN}`.execute(db);
  await sql`create unique index rides_open_slot_per_rider on rides (rider_id, open_slot) where status in ${OPEN}`.execute(db);
}
