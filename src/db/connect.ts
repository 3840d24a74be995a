import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { DatabaseSync, type StatementSync } from 'node:sqlite';
import { Kysely, PostgresDialect, SqliteDialect, type SqliteDatabase, type SqliteStatement } from 'kysely';
import pg from 'pg';
import type { DatabaseConfig } from '../config.ts';
import { BoundedMap } from '../platform/bounded-map.ts';
import type { Database } from './database.ts';
import { DirectTransactions, GroupCommit, type Transactions } from './transaction.ts';

// One pool per instance; several instances share PostgreSQL, so keep each one modest.
const POSTGRES_POOL = { max: 10, idleTimeoutMillis: 30_000, connectionTimeoutMillis: 5_000 };
const STATEMENT_CACHE_SIZE = 256;

export interface DatabaseConnection {
  kind: DatabaseConfig['kind'];
  db: Kysely<Database>;
  /** How units of work are committed: group commit on SQLite's one connection, one transaction each on PostgreSQL. */
  transactions: Transactions;
}

/** `onConnectionError` hears of pooled connections that died while idle (a database restart). */
export function connectDatabase(config: DatabaseConfig, onConnectionError: (error: Error) => void = () => {}): DatabaseConnection {
  if (config.kind === 'sqlite') {
    const db = new Kysely<Database>({ dialect: sqliteDialect(config.file) });
    return { kind: 'sqlite', db, transactions: new GroupCommit(db) };
  }
  const db = new Kysely<Database>({ dialect: postgresDialect(config.url, onConnectionError) });
  return { kind: 'postgres', db, transactions: new DirectTransactions(db) };
}

/**
 * The built-in node:sqlite driver behind Kysely's SQLite dialect. WAL with synchronous=FULL: a
 * commit is on disk before it is acknowledged. Prepared statements are cached by SQL text.
 */
export function openSqlite(file: string): DatabaseSync {
  if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true });
  const database = new DatabaseSync(file);
  database.exec(`
    PRAGMA journal_mode = WAL;
    PRAGMA synchronous = FULL;
    PRAGMA busy_timeout = 5000;
    PRAGMA foreign_keys = ON;
  `);
  return database;
}

function sqliteDialect(file: string): SqliteDialect {
  return new SqliteDialect({ database: async () => new CachedSqlite(openSqlite(file)) });
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

function postgresDialect(url: string, onConnectionError: (error: Error) => void): PostgresDialect {
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
  pool.on('connect', (client) => client.on('error', onConnectionError));
  return new PostgresDialect({ pool });
}
