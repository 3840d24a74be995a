import { sql, type Kysely } from 'kysely';
import { Migrator, type Migration, type MigrationResultSet } from 'kysely/migration';
import type { DatabaseConfig } from '../config.ts';
import * as accounts from './migrations/2026-11-22-01-accounts.ts';
import * as rides from './migrations/2026-11-22-02-rides.ts';
import * as payments from './migrations/2026-11-22-03-payments.ts';
import * as rideActivity from './migrations/2026-11-22-04-ride-activity-indexes.ts';
import * as demandBucketIndex from './migrations/2026-11-22-05-ride-demand-buckets.ts';
import * as openSlots from './migrations/2026-11-23-03-ride-open-slots.ts';
import * as demandBuckets from './migrations/2026-11-23-04-demand-buckets.ts';
import * as presenceOnline from './migrations/2026-11-23-05-driver-presence-online.ts';
import * as driverProfiles from './migrations/2026-11-23-06-driver-profiles.ts';
import * as dispatch from './migrations/2026-11-23-07-dispatch.ts';
import * as pricingVersions from './migrations/2026-11-23-08-pricing-versions.ts';
import * as auditLog from './migrations/2026-11-23-09-audit-log.ts';
import * as accountStatus from './migrations/2026-11-25-11-account-status.ts';
import * as refunds from './migrations/2026-11-25-12-refunds.ts';
import * as complaints from './migrations/2026-11-25-21-complaints.ts';
import * as overviewIndexes from './migrations/2026-11-25-22-overview-indexes.ts';
import * as deletionRequestTime from './migrations/2026-11-25-23-deletion-request-time.ts';
import * as idempotencyKeys from './migrations/2026-11-27-01-idempotency-keys.ts';
import * as auditClientRequestId from './migrations/2026-11-27-02-audit-client-request-id.ts';
import * as pricingV2 from './migrations/2026-11-28-11-pricing-v2.ts';
import * as tripFare from './migrations/2026-11-28-12-trip-fare.ts';
import * as driverEarnings from './migrations/2026-11-28-21-driver-earnings.ts';
import * as tripShares from './migrations/2026-11-28-31-trip-shares.ts';
import * as incidents from './migrations/2026-11-28-32-incidents.ts';
import * as travelTimeCells from './migrations/2026-11-28-41-travel-time-cells.ts';
import * as scheduledRides from './migrations/2026-11-29-11-scheduled-rides.ts';
import * as rideReminders from './migrations/2026-11-29-12-ride-reminders.ts';
import * as rideStops from './migrations/2026-11-29-21-ride-stops.ts';
import * as destinationChanges from './migrations/2026-11-29-22-destination-changes.ts';
import * as accountPhones from './migrations/2026-11-29-31-account-phones.ts';
import * as driverDocuments from './migrations/2026-11-29-32-driver-documents.ts';
import * as detourCells from './migrations/2026-11-29-41-detour-cells.ts';
import * as supplySamples from './migrations/2026-11-29-51-supply-samples.ts';
import * as offersCreatedAt from './migrations/2026-11-29-52-offers-created-at.ts';
import * as userLanguage from './migrations/2026-11-30-11-user-language.ts';
import * as pushSubscriptions from './migrations/2026-11-30-31-push-subscriptions.ts';
import * as notificationTexts from './migrations/2026-11-30-41-notification-texts.ts';

// Listed here rather than read from disk so the set is explicit; names sort by date.
const migrations: Record<string, Migration> = {
  '2026-11-22-01-accounts': accounts,
  '2026-11-22-02-rides': rides,
  '2026-11-22-03-payments': payments,
  '2026-11-22-04-ride-activity-indexes': rideActivity,
  '2026-11-22-05-ride-demand-buckets': demandBucketIndex,
  '2026-11-23-03-ride-open-slots': openSlots,
  '2026-11-23-04-demand-buckets': demandBuckets,
  '2026-11-23-05-driver-presence-online': presenceOnline,
  '2026-11-23-06-driver-profiles': driverProfiles,
  '2026-11-23-07-dispatch': dispatch,
  '2026-11-23-08-pricing-versions': pricingVersions,
  '2026-11-23-09-audit-log': auditLog,
  '2026-11-25-11-account-status': accountStatus,
  '2026-11-25-12-refunds': refunds,
  '2026-11-25-21-complaints': complaints,
  '2026-11-25-22-overview-indexes': overviewIndexes,
  '2026-11-25-23-deletion-request-time': deletionRequestTime,
  '2026-11-27-01-idempotency-keys': idempotencyKeys,
  '2026-11-27-02-audit-client-request-id': auditClientRequestId,
  '2026-11-28-11-pricing-v2': pricingV2,
  '2026-11-28-12-trip-fare': tripFare,
  '2026-11-28-21-driver-earnings': driverEarnings,
  '2026-11-28-31-trip-shares': tripShares,
  '2026-11-28-32-incidents': incidents,
  '2026-11-28-41-travel-time-cells': travelTimeCells,
  '2026-11-29-11-scheduled-rides': scheduledRides,
  '2026-11-29-12-ride-reminders': rideReminders,
  '2026-11-29-21-ride-stops': rideStops,
  '2026-11-29-22-destination-changes': destinationChanges,
  '2026-11-29-31-account-phones': accountPhones,
  '2026-11-29-32-driver-documents': driverDocuments,
  '2026-11-29-41-detour-cells': detourCells,
  '2026-11-29-51-supply-samples': supplySamples,
  '2026-11-29-52-offers-created-at': offersCreatedAt,
  '2026-11-30-11-user-language': userLanguage,
  '2026-11-30-31-push-subscriptions': pushSubscriptions,
  '2026-11-30-41-notification-texts': notificationTexts,
};

/** Brings the schema up to date. On PostgreSQL Kysely holds an advisory lock, so concurrent starts run it once. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the migrator works on any schema
export function migrateToLatest(db: Kysely<any>, kind: DatabaseConfig['kind']): Promise<void> {
  return migrate(db, kind, (migrator) => migrator.migrateToLatest());
}

/** Brings the schema to the named migration, so upgrade tests can put rows in an older schema. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the migrator works on any schema
export function migrateTo(db: Kysely<any>, kind: DatabaseConfig['kind'], name: string): Promise<void> {
  return migrate(db, kind, (migrator) => migrator.migrateTo(name));
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the migrator works on any schema
async function migrate(db: Kysely<any>, kind: DatabaseConfig['kind'], run: (migrator: Migrator) => Promise<MigrationResultSet>): Promise<void> {
  // Kysely looks for its bookkeeping tables in every schema unless told which one is ours.
  const migrationTableSchema =
    kind === 'postgres' ? (await sql<{ schema: string }>`select current_schema() as schema`.execute(db)).rows[0].schema : undefined;
  // Work lands from parallel branches, each with migrations of its own (new tables, new columns): one
  // whose name sorts before a migration a database already ran is run then, not refused as corrupt.
  const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations }, migrationTableSchema, allowUnorderedMigrations: true });
  const { error, results } = await run(migrator);
  if (error) {
    const failed = results?.find((r) => r.status === 'Error')?.migrationName ?? 'unknown';
    throw new Error(`Database migration ${failed} failed`, { cause: error });
  }
}
