import { PostgresAdapter, sql, type ColumnDefinitionBuilder, type Kysely } from 'kysely';

// Frozen once released. Times are epoch milliseconds (bigint), money whole rupees (integer).

export async function up(db: Kysely<unknown>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  const id = (c: ColumnDefinitionBuilder) => (postgres ? c.primaryKey().generatedByDefaultAsIdentity() : c.primaryKey());

  await db.schema
    .createTable('rides')
    .addColumn('id', 'integer', id)
    .addColumn('rider_id', 'integer', (c) => c.notNull().references('users.id'))
    .addColumn('driver_id', 'integer', (c) => c.references('users.id'))
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('ride_type', 'text', (c) => c.notNull())
    .addColumn('pickup_location', 'text')
    .addColumn('drop_location', 'text')
    .addColumn('pickup_lat', 'double precision')
    .addColumn('pickup_lon', 'double precision')
    .addColumn('drop_lat', 'double precision')
    .addColumn('drop_lon', 'double precision')
    .addColumn('pickup_plus_code', 'text')
    .addColumn('drop_plus_code', 'text')
    .addColumn('pickup_landmark', 'text')
    .addColumn('drop_landmark', 'text')
    .addColumn('distance_km', 'double precision', (c) => c.notNull())
    .addColumn('duration_minutes', 'integer', (c) => c.notNull())
    .addColumn('surge_multiplier', 'double precision', (c) => c.notNull())
    .addColumn('fare', 'integer', (c) => c.notNull())
    .addColumn('payment_mode', 'text', (c) => c.notNull())
    .addColumn('payment_status', 'text', (c) => c.notNull())
    .addColumn('payment_reference', 'text')
    .addColumn('start_otp', 'text', (c) => c.notNull())
    .addColumn('end_otp', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('accepted_at', 'bigint')
    .addColumn('picked_at', 'bigint')
    .addColumn('completed_at', 'bigint')
    .addColumn('cancelled_at', 'bigint')
    .addColumn('driver_lat', 'double precision')
    .addColumn('driver_lon', 'double precision')
    .addColumn('driver_location_updated_at', 'bigint')
    .addColumn('arriving_notified_at', 'bigint')
    .addColumn('cancellation_reason', 'text')
    .addColumn('cancelled_by', 'text')
    .addColumn('cancellation_fee', 'integer')
    .addColumn('rider_rating', 'integer')
    .addColumn('rider_feedback', 'text')
    .addColumn('driver_rating', 'integer')
    .addColumn('driver_feedback', 'text')
    .execute();
  await db.schema.createIndex('rides_status_id').on('rides').columns(['status', 'id']).execute();
  await db.schema.createIndex('rides_rider_id').on('rides').columns(['rider_id', 'id']).execute();
  // Partial where a column starts out null, so booking a ride does not touch the index.
  await db.schema.createIndex('rides_driver_id').on('rides').columns(['driver_id', 'id']).where('driver_id', 'is not', null).execute();
  await db.schema.createIndex('rides_created_at').on('rides').column('created_at').execute();
  // A driver is on at most one ride at a time; a second accept breaks this index.
  await db.schema
    .createIndex('rides_one_active_ride_per_driver')
    .on('rides')
    .column('driver_id')
    .unique()
    .where(sql.ref('status'), 'in', [sql.lit('ACCEPTED'), sql.lit('PICKED')])
    .execute();

  // Last reported position per driver, written in batches; insights count recently active drivers.
  await db.schema
    .createTable('driver_presence')
    .addColumn('driver_id', 'integer', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('lat', 'double precision', (c) => c.notNull())
    .addColumn('lon', 'double precision', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('driver_presence_updated_at').on('driver_presence').column('updated_at').execute();
}
