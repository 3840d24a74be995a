import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { tableOwners } from '../../src/db/table-owners.ts';

// docs/architecture.md stays true to the code it describes: every event of src/events.ts, every table
// with its owner, and each module with the modules it uses appear there, so a change of any of them
// without the page fails here (beside the other architecture checks, which every change runs).

const ROOT = join(import.meta.dirname, '../..');
const DOC = readFileSync(join(ROOT, 'docs/architecture.md'), 'utf8');

/** The keys of each `export type <Name> = { … };` map in src/events.ts. */
function eventMaps(): Map<string, string[]> {
  const text = readFileSync(join(ROOT, 'src/events.ts'), 'utf8');
  const maps = new Map<string, string[]>();
  for (const [, name, body] of text.matchAll(/export type (\w+) = \{\n([\s\S]*?)\n\};/g)) {
    maps.set(name, [...body.matchAll(/^ {2}'([^']+)':/gm)].map(([, key]) => key));
  }
  return maps;
}

/** For each module of src/modules, the other modules its files import (type-only imports included, as module-graph.test.ts counts them). */
function moduleUses(): Map<string, string[]> {
  const modulesDir = join(ROOT, 'src/modules');
  const uses = new Map<string, string[]>();
  for (const name of readdirSync(modulesDir)) {
    const used = new Set<string>();
    for (const file of readdirSync(join(modulesDir, name), { recursive: true, encoding: 'utf8' }).filter((path) => path.endsWith('.ts'))) {
      const text = readFileSync(join(modulesDir, name, file), 'utf8');
      // A module's files sit in its folder, so another module is always '../<name>/…'.
      for (const [, other] of text.matchAll(/from '\.\.\/([a-z-]+)\//g)) if (other !== name) used.add(other);
    }
    uses.set(name, [...used].sort());
  }
  return uses;
}

describe('docs/architecture.md', () => {
  test('names every event and message of src/events.ts', () => {
    const maps = eventMaps();
    assert.ok(maps.size >= 3, 'src/events.ts has its typed maps');
    for (const [map, keys] of maps) {
      assert.ok(DOC.includes(map), `${map} is not described`);
      for (const key of keys) assert.ok(DOC.includes(`\`${key}\``), `${map} '${key}' is not described`);
    }
  });

  test('gives every table its owner', () => {
    const rows = [...DOC.matchAll(/^\| (`[a-z_]+`(?:, `[a-z_]+`)*) \| `([a-z]+)`/gm)];
    const documented = new Map(rows.flatMap(([, tables, owner]) => [...tables.matchAll(/`([a-z_]+)`/g)].map(([, table]) => [table, owner] as const)));
    assert.deepEqual(Object.fromEntries([...documented].sort()), Object.fromEntries(Object.entries(tableOwners).sort()));
  });

  test('links only to files that exist', () => {
    for (const [, target] of DOC.matchAll(/\]\(([^)#]+)(?:#[^)]*)?\)/g)) {
      if (target.startsWith('http')) continue;
      assert.doesNotThrow(() => readFileSync(join(ROOT, 'docs', target)), `docs/architecture.md links to missing ${target}`);
    }
  });

  test('lists every module with the modules it uses', () => {
    const rows = [...DOC.matchAll(/^\| `([a-z-]+)` \| [^|]+ \| ([^|]+) \|$/gm)];
    const documented = new Map(rows.map(([, name, uses]) => [name, uses.trim() === '—' ? [] : uses.split(',').map((m) => m.trim()).sort()]));
    const actual = moduleUses();
    for (const [name, uses] of actual) {
      assert.deepEqual(documented.get(name), uses, `docs/architecture.md: module ${name} uses ${uses.join(', ') || 'no other module'}; update its row in the modules table`);
    }
    assert.deepEqual([...documented.keys()].sort(), [...actual.keys()].sort(), 'docs/architecture.md: the modules table lists exactly the modules of src/modules');
  });
});
