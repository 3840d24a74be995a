import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, test } from 'node:test';
import type { Database } from '../../src/db/database.ts';
import { tableOwners, type TableOwner } from '../../src/db/table-owners.ts';

// One owner per table (docs/style.md, "Each table has one owner"): a module's code queries only the
// tables src/db/table-owners.ts gives it, and asks the owner's service for the rest. A query on
// another module's table is either one of the named exceptions below or a failure here.

const SRC = resolve(import.meta.dirname, '../../src');
type Table = keyof Database;

/**
 * The deliberate exceptions: each a single statement that would otherwise be two or more, on a hot
 * path, with why it is worth the crossing and what it measured. An exception no longer used fails
 * the test too, so the list stays true.
 */
const EXCEPTIONS: ReadonlyArray<{ file: string; table: Table; why: string }> = [
  {
    // The offer copies the ride's type, fare and places in the INSERT … SELECT that checks the ride is
    // still REQUESTED and its driver free, and on PostgreSQL locks the ride row (FOR UPDATE) in that
    // same statement: an accept or a cancellation comes wholly before or after it, which a read through
    // rides' service and a separate insert could not promise without a transaction around both. Gain:
    // correctness first; one round trip instead of three per offer (not measured on its own: the
    // dispatch round figures in docs/performance.md include it).
    file: 'modules/dispatch/offers.repository.ts',
    table: 'rides',
    why: 'offers copy and lock their ride in one statement',
  },
  {
    // A booking writes the rider's first notice in the booking statement itself (on PostgreSQL the
    // rides and notices of every booking that arrives together in one statement). Measured when it
    // landed (commit 3a9457c): the statement ran 13,800 bookings/s in tens against 3,400/s for one
    // ride per statement, and the production booking probe went from 1,603 to 3,329 bookings/s.
    file: 'modules/rides/booking.repository.ts',
    table: 'notifications',
    why: 'a booking and its notice are one statement',
  },
];

/** Kysely's methods that name a table as their first argument (a name, 'name as alias', or a list of them). */
const TABLE_METHODS = [
  'selectFrom', 'insertInto', 'replaceInto', 'updateTable', 'deleteFrom', 'mergeInto', 'using',
  'innerJoin', 'leftJoin', 'rightJoin', 'fullJoin', 'crossJoin', 'innerJoinLateral', 'leftJoinLateral', 'crossJoinLateral',
];
const TABLES = new Set<string>(Object.keys(tableOwners));
const isTable = (name: string): name is Table => TABLES.has(name);

/** Every table of the database a source text queries: through the query builder or in raw SQL text. */
function tablesIn(text: string): Set<Table> {
  const found = new Set<Table>();
  const add = (name: string) => {
    if (isTable(name)) found.add(name);
  };
  const call = new RegExp(`\\.(?:${TABLE_METHODS.join('|')})\\(\\s*(\\[[^\\]]*\\]|'[^']*'|"[^"]*")`, 'g');
  for (const [, argument] of text.matchAll(call)) for (const [, name] of argument.matchAll(/['"]\s*([a-z_][a-z0-9_]*)/g)) add(name);
  // Raw SQL: sql`…` templates (with or without a type argument), sql.raw('…') and CompiledQuery.raw('…').
  const raw = [...text.matchAll(/\bsql(?:<[^`>]*(?:<[^`>]*>)?[^`>]*>)?`([^`]*)`/g), ...text.matchAll(/\.raw\(\s*(?:'([^']*)'|"([^"]*)"|`([^`]*)`)/g)];
  for (const match of raw) {
    const statement = match.slice(1).find((part) => part !== undefined) ?? '';
    for (const [, name] of statement.matchAll(/(?:\b(?:from|join|into|update|table)\s+|null::)"?([a-z_][a-z0-9_]*)/gi)) add(name.toLowerCase());
  }
  return found;
}

/** The owner a source file acts for: its module, or `platform` for everything outside src/modules/. */
function ownerOf(file: string): TableOwner {
  const [top, name] = file.split('/');
  return (top === 'modules' ? name : 'platform') as TableOwner;
}

/** Each query of `file` (a path under src/) on a table someone else owns and no exception covers. */
function foreignTables(file: string, text: string, exceptions = EXCEPTIONS): string[] {
  const owner = ownerOf(file);
  return [...tablesIn(text)]
    .filter((table) => tableOwners[table] !== owner && !exceptions.some((exception) => exception.file === file && exception.table === table))
    .map((table) => `${file} queries ${table} (owned by ${tableOwners[table]})`);
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return path.endsWith('.ts') ? [path] : [];
  });
}

// Migrations create and change every table: they are the schema's history, not a module's queries.
const files = sourceFiles(SRC)
  .map((path) => relative(SRC, path))
  .filter((file) => !file.startsWith('db/migrations/'))
  .map((file) => ({ file, text: readFileSync(join(SRC, file), 'utf8') }));

describe('table ownership', () => {
  test('every owner is a module of src/modules (or platform)', () => {
    const modules = new Set(readdirSync(join(SRC, 'modules')));
    for (const [table, owner] of Object.entries(tableOwners)) assert.ok(owner === 'platform' || modules.has(owner), `${table} is owned by ${owner}, which is no module`);
  });

  test("no code queries another module's table, except the named exceptions", () => {
    assert.deepEqual(files.flatMap(({ file, text }) => foreignTables(file, text)), []);
  });

  test('every exception is still needed', () => {
    for (const { file, table } of EXCEPTIONS) {
      const source = files.find((candidate) => candidate.file === file);
      assert.ok(source, `the exception names ${file}, which no longer exists`);
      assert.ok(tablesIn(source.text).has(table), `${file} no longer queries ${table}: remove its exception`);
      assert.notEqual(tableOwners[table], ownerOf(file), `${file} owns ${table}: its exception is not one`);
    }
  });

  test('the check finds each way of reaching a table', () => {
    const fabricated = [
      "await db.selectFrom('offers').selectAll().execute();",
      "db.updateTable('refunds as r').set({ status: 'x' })",
      "query.innerJoin('driver_profiles', 'driver_profiles.driver_id', 'rides.driver_id')",
      "db.selectFrom(['rides', 'complaints as c'])",
      "db.insertInto(\n  'audit_log')",
      'sql<number>`(select count(*) from payment_sessions where user_id = ${id})`',
      "CompiledQuery.raw('delete from user_settings where user_id = $1', [id])",
      'sql`json_populate_recordset(null::users, ${rows}::json)`',
    ].join('\n');
    assert.deepEqual(
      [...tablesIn(fabricated)].sort(),
      ['audit_log', 'complaints', 'driver_profiles', 'offers', 'payment_sessions', 'refunds', 'rides', 'user_settings', 'users'],
    );
    // A column, an alias or a word in a comment that happens to be a table's name is no query.
    assert.deepEqual([...tablesIn("eb.fn.countAll().as('rides'); // the rides of the day\nrow.offers")], []);
  });

  test('a module querying a table it does not own fails, and only an exception lets it', () => {
    const text = "export const pending = (db: Db) => db.selectFrom('offers').select('id').where('status', '=', 'pending').execute();";
    assert.deepEqual(foreignTables('modules/rides/fabricated.repository.ts', text), ['modules/rides/fabricated.repository.ts queries offers (owned by dispatch)']);
    assert.deepEqual(foreignTables('modules/dispatch/fabricated.repository.ts', text), []);
    assert.deepEqual(foreignTables('platform/fabricated.ts', text), ['platform/fabricated.ts queries offers (owned by dispatch)']);
    const excepted = [{ file: 'modules/rides/fabricated.repository.ts', table: 'offers' as const, why: 'fabricated' }];
    assert.deepEqual(foreignTables('modules/rides/fabricated.repository.ts', text, excepted), []);
  });
});
