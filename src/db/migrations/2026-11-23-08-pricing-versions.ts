import type { Kysely } from 'kysely';

// Frozen once released. Pricing rules as versioned data: version 1 holds the numbers the service
// was built with; every ride records the version it was priced with.

const FIRST = {
  fares: {
    bike: { base: 20, perKm: 6, perMinute: 1, minimum: 30 },
    auto: { base: 30, perKm: 10, perMinute: 1.5, minimum: 40 },
    mini: { base: 50, perKm: 12, perMinute: 2, minimum: 80 },
    sedan: { base: 70, perKm: 15, perMinute: 2.5, minimum: 110 },
    suv: { base: 100, perKm: 20, perMinute: 3, minimum: 150 },
  },
  surgeCap: 2.0,
  cancellation: {
    ACCEPTED: { share: 0.2, min: 20, max: 60 },
    PICKED: { share: 0.4, min: 50, max: 180 },
  },
};

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('pricing_versions')
    .addColumn('version', 'integer', (c) => c.primaryKey())
    .addColumn('rules', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('created_by', 'integer', (c) => c.references('users.id'))
    .execute();
  await (db as Kysely<{ pricing_versions: { version: number; rules: string; created_at: number; created_by: number | null } }>)
    .insertInto('pricing_versions')
    .values({ version: 1, rules: JSON.stringify(FIRST), created_at: 0, created_by: null })
    .execute();
  await db.schema.alterTable('rides').addColumn('pricing_version', 'integer', (c) => c.notNull().defaultTo(1)).execute();
}
