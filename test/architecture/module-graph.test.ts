import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, test } from 'node:test';

// The shape docs/style.md asks for, checked on every run: imports flow one way (no cycle between files,
// none between modules, platform below every module), and no source file grows past 300 lines.

const SRC = resolve(import.meta.dirname, '../../src');
const MAX_LINES = 300;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return path.endsWith('.ts') ? [path] : [];
  });
}

/** Every relative import of a file (type-only imports included: a cycle of types is still a cycle of knowledge). */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const found: string[] = [];
  // Only source imports: data files (package.json for the version) are not part of the graph.
  for (const match of text.matchAll(/(?:^|\n)\s*(?:import|export)\s[^;]*?from\s+'(\.[^']+\.ts)'/g)) found.push(resolve(dirname(file), match[1]));
  return found;
}

const files = sourceFiles(SRC);
const graph = new Map(files.map((file) => [file, importsOf(file)]));
const moduleOf = (file: string) => {
  const path = relative(SRC, file).split('/');
  return path[0] === 'modules' ? `modules/${path[1]}` : path.length > 1 ? path[0] : path[0].replace(/\.ts$/, '');
};

/** A cycle in the graph, as the list of its nodes, or undefined. */
function findCycle(edges: Map<string, Set<string>>): string[] | undefined {
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const visit = (node: string): string[] | undefined => {
    if (state.get(node) === 'done') return undefined;
    if (state.get(node) === 'open') return [...stack.slice(stack.indexOf(node)), node];
    state.set(node, 'open');
    stack.push(node);
    for (const next of edges.get(node) ?? []) {
      const cycle = visit(next);
      if (cycle) return cycle;
    }
    stack.pop();
    state.set(node, 'done');
    return undefined;
  };
  for (const node of edges.keys()) {
    const cycle = visit(node);
    if (cycle) return cycle;
  }
  return undefined;
}

describe('source layout', () => {
  test('every import resolves to a file of src/', () => {
    for (const [file, imports] of graph) {
      for (const target of imports) assert.ok(graph.has(target), `${relative(SRC, file)} imports missing ${relative(SRC, target)}`);
    }
  });

  test('no two files import each other, directly or around a loop', () => {
    const edges = new Map([...graph].map(([file, imports]) => [file, new Set(imports)]));
    const cycle = findCycle(edges);
    assert.equal(cycle, undefined, `import cycle: ${cycle?.map((f) => relative(SRC, f)).join(' → ')}`);
  });

  test('modules depend on each other one way only', () => {
    const edges = new Map<string, Set<string>>();
    for (const [file, imports] of graph) {
      const from = moduleOf(file);
      if (!from.startsWith('modules/')) continue;
      for (const target of imports) {
        const to = moduleOf(target);
        if (to !== from && to.startsWith('modules/')) edges.set(from, (edges.get(from) ?? new Set()).add(to));
      }
    }
    const cycle = findCycle(edges);
    assert.equal(cycle, undefined, `module cycle: ${cycle?.join(' → ')}`);
  });

  test('platform and db import no module', () => {
    for (const [file, imports] of graph) {
      const from = moduleOf(file);
      if (from !== 'platform' && from !== 'db') continue;
      const upward = imports.filter((target) => moduleOf(target).startsWith('modules/') || ['app', 'events'].includes(moduleOf(target)));
      assert.deepEqual(upward.map((f) => relative(SRC, f)), [], `${relative(SRC, file)} reaches up`);
    }
  });

  test(`no source file is longer than ${MAX_LINES} lines`, () => {
    const long = files.map((file) => [relative(SRC, file), readFileSync(file, 'utf8').split('\n').length] as const).filter(([, lines]) => lines > MAX_LINES);
    assert.deepEqual(long, []);
  });
});
