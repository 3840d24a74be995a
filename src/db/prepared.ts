import { CompiledQuery, PostgresAdapter, type Compilable, type Kysely, type QueryResult } from 'kysely';
import type { Database } from './database.ts';

const NAME = Symbol('parameter name');

/** What a statement's builder gets in place of each parameter: typed as the value, a marker underneath. */
interface Placeholder {
  readonly [NAME]: string;
}

const isPlaceholder = (value: unknown): value is Placeholder => typeof value === 'object' && value !== null && NAME in value;

interface Compiled {
  sql: string;
  /** For each parameter of the SQL text: the name of the value to bind there, or a constant of the builder. */
  slots: Array<{ name: string } | { constant: unknown }>;
}

/**
 * SQL texts of prepared statements on PostgreSQL, by the name the server keeps each one's plan
 * under. db/connect.ts runs these texts as named statements: parsed and planned once per
 * connection instead of once per execution. Bounded by the number of `prepare` calls in the code.
 */
export const statementNames = new Map<string, string>();

/**
 * A statement on a hot path, built with Kysely once per dialect and then run with named, typed
 * parameters: no query building or compiling per request, and on PostgreSQL no parsing or planning
 * per request either. The builder gets the parameters as placeholders (use each as a whole value:
 * never inside an array, an `in` list or a computed value, which would read the placeholder
 * itself). Anything else the builder writes is a constant of the statement.
 *
 * A statement that returns rows lists its columns rather than `*`: a prepared plan whose result
 * columns change under it (a migration adding a column while an older instance runs) would fail.
 */
export class PreparedStatement<P extends Record<string, unknown>, R> {
  readonly #name: string;
  readonly #build: (db: Kysely<Database>, parameters: P) => Compilable<R>;
  /** One compilation per dialect (SQLite's `?` against PostgreSQL's `$1`), keyed by its adapter. */
  readonly #compiled = new WeakMap<object, Compiled>();

  constructor(name: string, build: (db: Kysely<Database>, parameters: P) => Compilable<R>) {
    this.#name = name;
    this.#build = build;
  }

  /** Runs the statement on `db` (the reader or a unit's transaction) with these values. */
  execute(db: Kysely<Database>, values: P): Promise<QueryResult<R>> {
    const { sql, slots } = this.#compile(db);
    const parameters = slots.map((slot) => ('name' in slot ? values[slot.name] : slot.constant));
    return db.executeQuery<R>(CompiledQuery.raw(sql, parameters));
  }

  async rows(db: Kysely<Database>, values: P): Promise<R[]> {
    return (await this.execute(db, values)).rows;
  }

  #compile(db: Kysely<Database>): Compiled {
    const adapter = db.getExecutor().adapter;
    let compiled = this.#compiled.get(adapter);
    if (compiled) return compiled;
    const placeholders = new Proxy({} as P, { get: (_, name) => ({ [NAME]: String(name) }) });
    const { sql, parameters } = this.#build(db, placeholders).compile();
    compiled = { sql, slots: parameters.map((value) => (isPlaceholder(value) ? { name: value[NAME] } : { constant: value })) };
    this.#compiled.set(adapter, compiled);
    if (adapter instanceof PostgresAdapter) {
      // One name, one text: PostgreSQL refuses a name prepared twice on a connection.
      const name = `prepared_${this.#name}`;
      if ([...statementNames].some(([text, taken]) => taken === name && text !== sql)) throw new Error(`two prepared statements are named ${this.#name}`);
      statementNames.set(sql, name);
    }
    return compiled;
  }
}
