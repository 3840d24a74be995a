import { CompiledQuery, type Compilable, type Insertable, type Kysely, type Selectable } from 'kysely';
import type { Database, Db } from './database.ts';

/**
 * A query Kysely compiles once per dialect, then run with fresh parameters (in the order they
 * appear in the statement): for the hottest paths, which would otherwise rebuild the same query
 * on every request. The builder gets placeholder values.
 */
export function prepared<R>(build: (db: Kysely<Database>) => Compilable<R>) {
  const compiled = new WeakMap<object, string>();
  return async (db: Db, parameters: readonly unknown[]): Promise<R[]> => {
    const adapter = db.getExecutor().adapter;
    let text = compiled.get(adapter);
    if (!text) {
      text = build(db).compile().sql;
      compiled.set(adapter, text);
    }
    return (await db.executeQuery<R>(CompiledQuery.raw(text, [...parameters]))).rows;
  };
}

/** INSERT ... RETURNING * of a fixed column list, prepared as above. Rows must carry exactly these columns. */
export function preparedInsert<T extends keyof Database>(table: T, columns: ReadonlyArray<keyof Insertable<Database[T]> & string>) {
  const insert = prepared<Selectable<Database[T]>>((db) => {
    // Seen as a schema of one untyped table, so the same code compiles the statement for any table.
    const untyped = db as unknown as Kysely<Record<string, Record<string, unknown>>>;
    return untyped.insertInto(table).values(Object.fromEntries(columns.map((column) => [column, null]))).returningAll();
  });
  return async (db: Db, row: Insertable<Database[T]>): Promise<Selectable<Database[T]>> =>
    (await insert(db, columns.map((column) => (row as Record<string, unknown>)[column] ?? null)))[0];
}
