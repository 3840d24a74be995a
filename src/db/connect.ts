import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { DatabaseSync, type StatementSync } from 'node:sqlite';
import {
  Kysely,
  PostgresDialect,
  SqliteDialect,
  sql,
  type DatabaseIntrospector,
  type SchemaMetadata,
  type SqliteDatabase,
  type SqliteStatement,
  type TableMetadata,
} from 'kysely';
import pg from 'pg';
import type { DatabaseConfig } from '../config.ts';
import { BoundedMap } from '../platform/bounded-map.ts';
import type { Database, Db } from './database.ts';
import { migrateTo, migrateToLatest } from './migrate.ts';
import { statementNames } from './prepared.ts';
import { DirectTransactions, GroupCommit, type Transactions } from './transaction.ts';

// Two pools per instance (readers and writers); several instances share PostgreSQL, so keep each modest.
const POSTGRES_POOL = { max: 10, idleTimeoutMillis: 30_000, connectionTimeoutMillis: 5_000 };
const STATEMENT_CACHE_SIZE = 256;

export interface PoolStats {
  pool: 'reader' | 'writer';
  /** Open connections, those idle among them, and requests waiting for one. */
  total: number;
  idle: number;
  waiting: number;
}

export interface DatabaseConnection {
  kind: DatabaseConfig['kind'];
  /**
   * For reads outside units of work: on SQLite a read-only connection of its own, on PostgreSQL a
   * pool of its own, so a read never waits for a unit (and, on SQLite, cannot write).
   */
  db: Db;
  /** Every write goes through a unit: group commit on SQLite's one writer connection, one transaction each on PostgreSQL. */
  transactions: Transactions;
  /** Brings the schema up to date (the writer's job; run once at start), or to the named migration (upgrade tests). */
  migrate(to?: string): Promise<void>;
  /** Connections of each PostgreSQL pool now; none on SQLite, which keeps one connection for reading and one for writing. */
  pools(): PoolStats[];
  destroy(): Promise<void>;
}

/** `onConnectionError` hears of pooled connections that died while idle (a database restart). */
export function connectDatabase(config: DatabaseConfig, onConnectionError: (error: Error) => void = () => {}): DatabaseConnection {
  if (config.kind === 'sqlite') {
    const writer = new Kysely<Database>({ dialect: sqliteDialect(config.file, false) });
    // An in-memory database exists once per connection, so there the reader is the writer.
    const reader = config.file === ':memory:' ? writer : new Kysely<Database>({ dialect: sqliteDialect(config.file, true) });
    return {
      kind: 'sqlite',
      db: reader,
      transactions: new GroupCommit(writer),
      migrate: (to) => (to ? migrateTo(writer, 'sqlite', to) : migrateToLatest(writer, 'sqlite')),
      pools: () => [],
      destroy: async () => {
        if (reader !== writer) await reader.destroy();
        await writer.destroy();
      },
    };
  }
  // Two pools: a unit that reads outside its transaction waits for a reader, never for another
  // writer, so units holding every writer connection cannot starve each other (a pool deadlock).
  const writerPool = postgresPool(config.url, onConnectionError);
  const readerPool = postgresPool(config.url, onConnectionError);
  const writer = new Kysely<Database>({ dialect: new OwnSchemaPostgresDialect({ pool: writerPool }) });
  const reader = new Kysely<Database>({ dialect: new OwnSchemaPostgresDialect({ pool: readerPool }) });
  const stats = (pool: PoolStats['pool'], { totalCount, idleCount, waitingCount }: pg.Pool): PoolStats => ({ pool, total: totalCount, idle: idleCount, waiting: waitingCount });
  return {
    kind: 'postgres',
    db: reader,
    transactions: new DirectTransactions(writer),
    migrate: (to) => (to ? migrateTo(writer, 'postgres', to) : migrateToLatest(writer, 'postgres')),
    pools: () => [stats('reader', readerPool), stats('writer', writerPool)],
    destroy: async () => {
      await Promise.all([reader.destroy(), writer.destroy()]);
    },
  };
}

/**
 * The built-in node:sqlite driver behind Kysely's SQLite dialect. WAL with synchronous=FULL: a
 * commit is on disk before it is acknowledged. Prepared statements are cached by SQL text.
 */
export const SQLITE_SETTINGS = {
  journal_mode: 'wal',
  synchronous: 2, // FULL
  busy_timeout: 5000,
  foreign_keys: 1,
  // Checkpoint every 10,000 WAL pages (about 40 MB) rather than SQLite's 1,000: a booking touches
  // a few random index pages (per rider), and a checkpoint copies each page once however often it
  // changed, so ten times fewer checkpoints copy far fewer pages (+15 % bookings on this workload).
  wal_autocheckpoint: 10_000,
} as const;
export function openSqlite(file: string, readOnly = false): DatabaseSync {
  if (readOnly) {
    // WAL mode is a property of the file, set by the writer; the reader only needs to wait politely.
    const database = new DatabaseSync(file, { readOnly: true });
    database.exec('PRAGMA busy_timeout = 5000;');
    return database;
  }
  if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true });
  const database = new DatabaseSync(file);
  for (const [name, value] of Object.entries(SQLITE_SETTINGS)) database.exec(`PRAGMA ${name} = ${value}`);
  return database;
}

function sqliteDialect(file: string, readOnly: boolean): SqliteDialect {
  return new SqliteDialect({ database: async () => new CachedSqlite(openSqlite(file, readOnly)) });
}

class CachedSqlite implements SqliteDatabase {
  readonly #database: DatabaseSync;
  readonly #statements = new BoundedMap<string, SqliteStatement>(STATEMENT_CACHE_SIZE);

  constructor(database: DatabaseSync) {
    this.#database = database;
  }

  prepare(sql: string): SqliteStatement {
    let statement = this.#statements.get(sql);
    if (!statement) {
      statement = adaptStatement(this.#database.prepare(sql));
      this.#statements.set(sql, statement);
    }
    return statement;
  }

  close(): void {
    this.#statements.clear();
    this.#database.close();
  }
}

type SqliteValue = null | number | bigint | string | NodeJS.ArrayBufferView;

function adaptStatement(statement: StatementSync): SqliteStatement {
  return {
    reader: statement.columns().length > 0,
    all: (parameters) => statement.all(...(parameters as SqliteValue[])),
    run: (parameters) => statement.run(...(parameters as SqliteValue[])),
    iterate: (parameters) => statement.iterate(...(parameters as SqliteValue[])),
  };
}

function postgresPool(url: string, onConnectionError: (error: Error) => void): pg.Pool {
  // int8 (counts, epoch-millisecond times) and numeric come back as strings by default.
  const types = {
    getTypeParser: (oid: number, format?: 'text' | 'binary') => {
      if (oid === 20) return (value: string) => Number(value);
      if (oid === 1700) return (value: string) => Number.parseFloat(value);
      return pg.types.getTypeParser(oid, format) as (value: string) => unknown;
    },
  };
  const pool = new pg.Pool({ connectionString: url, types, ...POSTGRES_POOL });
  // A connection that dies (database restart, network) emits 'error': on the pool while idle, on the
  // connection itself while in use. Unheard, either would crash the process. The failing query
  // answers 503, and the pool replaces the broken connection.
  pool.on('error', onConnectionError);
  pool.on('connect', (client) => {
    client.on('error', onConnectionError);
    runPreparedByName(client);
  });
  return pool;
}

/**
 * Makes the connection run the texts of prepared statements (db/prepared.ts) as named statements,
 * which PostgreSQL parses and plans once per connection. Kysely passes a text and its values; every
 * other text runs as before, unnamed.
 */
function runPreparedByName(client: pg.PoolClient): void {
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  client.query = ((text: unknown, ...rest: unknown[]) => {
    const name = typeof text === 'string' ? statementNames.get(text) : undefined;
    return name && Array.isArray(rest[0]) && rest.length === 1 ? query({ name, text, values: rest[0] }) : query(text, ...rest);
  }) as typeof client.query;
}

/**
 * Kysely's PostgreSQL introspection (which its migrator uses to find its bookkeeping tables) reads
 * every schema and calls name-based functions such as has_schema_privilege on each; a schema that
 * another connection drops meanwhile makes it fail with `schema "…" does not exist`. Several
 * deployments, or parallel test files, may share one database, so introspection here sees only the
 * connection's own schema (current_schema(), from the URL's search_path) and looks catalogs up by
 * oid, which a concurrent drop cannot break.
 */
class OwnSchemaPostgresDialect extends PostgresDialect {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- introspection works on any schema
  override createIntrospector(db: Kysely<any>): DatabaseIntrospector {
    return new OwnSchemaIntrospector(db);
  }
}

interface ColumnRow {
  table: string;
  kind: string;
  schema: string;
  column: string;
  type: string;
  type_schema: string;
  not_null: boolean;
  has_default: boolean;
  auto_incrementing: boolean;
}

class OwnSchemaIntrospector implements DatabaseIntrospector {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- introspection works on any schema
  readonly #db: Kysely<any>;

  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- introspection works on any schema
  constructor(db: Kysely<any>) {
    this.#db = db;
  }

  async getSchemas(): Promise<SchemaMetadata[]> {
    const { rows } = await sql<{ name: string }>`select current_schema() as name`.execute(this.#db);
    return rows.filter((row) => row.name !== null);
  }

  async getTables(): Promise<TableMetadata[]> {
    const { rows } = await sql<ColumnRow>`
      select c.relname as "table", c.relkind as kind, ns.nspname as schema, a.attname as "column",
             t.typname as type, tns.nspname as type_schema, a.attnotnull as not_null, a.atthasdef as has_default,
             (a.attidentity <> '' or coalesce(pg_get_expr(d.adbin, d.adrelid) like 'nextval(%', false)) as auto_incrementing
      from pg_catalog.pg_class c
      join pg_catalog.pg_namespace ns on ns.oid = c.relnamespace
      join pg_catalog.pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped
      join pg_catalog.pg_type t on t.oid = a.atttypid
      join pg_catalog.pg_namespace tns on tns.oid = t.typnamespace
      left join pg_catalog.pg_attrdef d on d.adrelid = c.oid and d.adnum = a.attnum
      where ns.nspname = current_schema() and c.relkind in ('r', 'v', 'p', 'f')
      order by c.relname, a.attnum`.execute(this.#db);
    const tables = new Map<string, TableMetadata>();
    for (const row of rows) {
      let table = tables.get(row.table);
      if (!table) {
        table = { name: row.table, schema: row.schema, isView: row.kind === 'v', isForeign: row.kind === 'f', columns: [] };
        tables.set(row.table, table);
      }
      table.columns.push({
        name: row.column,
        dataType: row.type,
        dataTypeSchema: row.type_schema,
        isNullable: !row.not_null,
        hasDefaultValue: row.has_default,
        isAutoIncrementing: row.auto_incrementing,
      });
    }
    return [...tables.values()];
  }
}
