import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { tableOwners } from '../../src/db/table-owners.ts';

// docs/architecture.md stays true to the code it describes: every event of src/events.ts and every
// table with its owner appear there, so adding one without the page fails here.

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
});
