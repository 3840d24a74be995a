import { sql } from 'kysely';
import type { Db, WriteDb } from '../../db/database.ts';
import type { PricingRules } from './pricing.schemas.ts';

export interface StoredVersion {
  version: number;
  rules: PricingRules;
  createdAt: number;
  createdBy: number | null;
}

const parse = (row: { version: number; rules: string; created_at: number; created_by: number | null }): StoredVersion => ({
  version: row.version,
  rules: JSON.parse(row.rules) as PricingRules,
  createdAt: Number(row.created_at),
  createdBy: row.created_by,
});

export async function latestVersion(db: Db): Promise<number> {
  const row = await db.selectFrom('pricing_versions').select((eb) => eb.fn.max<number>('version').as('version')).executeTakeFirstOrThrow();
  return Number(row.version);
}

export async function findVersion(db: Db, version: number): Promise<StoredVersion | undefined> {
  const row = await db.selectFrom('pricing_versions').selectAll().where('version', '=', version).executeTakeFirst();
  return row && parse(row);
}

/** Every version, newest first: a handful, each a few hundred bytes. */
export async function allVersions(db: Db): Promise<StoredVersion[]> {
  return (await db.selectFrom('pricing_versions').selectAll().orderBy('version', 'desc').execute()).map(parse);
}

/** The next version after the newest; of two operators saving at once, one fails on the primary key. */
export async function insertVersion(db: WriteDb, rules: PricingRules, createdBy: number, now: number): Promise<StoredVersion> {
  const row = await db
    .insertInto('pricing_versions')
    .values({
      version: sql<number>`(select coalesce(max(version), 0) + 1 from pricing_versions)`,
      rules: JSON.stringify(rules),
      created_at: now,
      created_by: createdBy,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  return parse(row);
}
