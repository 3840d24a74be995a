import { CompiledQuery, type Insertable, type Kysely, type Selectable } from 'kysely';
import type { Database, Db } from './database.ts';

/**
 * INSERT ... RETURNING * for a fixed column list, compiled by Kysely once per dialect and then run
 * with fresh parameters: for the hottest writes, which would otherwise rebuild a 30-column query
 * every time. Rows must carry exactly these columns.
 */
export function preparedInsert<T extends keyof Database>(table: T, columns: ReadonlyArray<keyof Insertable<Database[T]> & string>) {
  const compiled = new WeakMap<object, string>();
  return async (db: Db, row: Insertable<Database[T]>): Promise<Selectable<Database[T]>> => {
    const adapter = db.getExecutor().adapter;
    let text = compiled.get(adapter);
    if (!text) {
      // Seen as a schema of one untyped table, so the same code compiles the statement for any table.
      const untyped = db as unknown as Kysely<Record<string, Record<string, unknown>>>;
      const template = Object.fromEntries(columns.map((column) => [column, null]));
      text = untyped.insertInto(table).values(template).returningAll().compile().sql;
      compiled.set(adapter, text);
    }
    const values = columns.map((column) => (row as Record<string, unknown>)[column] ?? null);
    const { rows } = await db.executeQuery<Selectable<Database[T]>>(CompiledQuery.raw(text, values));
    return rows[0];
  };
}
