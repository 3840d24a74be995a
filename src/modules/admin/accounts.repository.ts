import { sql, type Selectable } from 'kysely';
import type { AuditLogTable, WriteDb } from '../../db/database.ts';

type Entry = Pick<Selectable<AuditLogTable>, 'id' | 'before' | 'after'>;

/**
 * Audit entries that carry an erased person's name or e-mail: those about the account (or its
 * driver profile), and any other that mentions the e-mail.
 */
export function entriesNaming(db: WriteDb, userId: number, email: string): Promise<Entry[]> {
  const pattern = `%${email.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  return db
    .selectFrom('audit_log')
    .select(['id', 'before', 'after'])
    .where((eb) =>
      eb.or([
        eb.and([eb('target_type', 'in', ['user', 'driver']), eb('target_id', '=', String(userId))]),
        sql<boolean>`${eb.ref('before')} like ${pattern} escape '\\'`,
        sql<boolean>`${eb.ref('after')} like ${pattern} escape '\\'`,
      ]),
    )
    .execute();
}

export async function rewriteEntry(db: WriteDb, entry: Entry): Promise<void> {
  await db.updateTable('audit_log').set({ before: entry.before, after: entry.after }).where('id', '=', entry.id).execute();
}
