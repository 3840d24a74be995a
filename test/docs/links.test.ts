import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, test } from 'node:test';

// The README and docs/ link to each other and to the code; a moved section or file shows here as a
// broken link instead of a reader's dead end.

const ROOT = resolve(import.meta.dirname, '../..');
const pages = ['README.md', 'bench/README.md', ...readdirSync(join(ROOT, 'docs'), { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('.md')).map((file) => `docs/${file}`)];

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens. */
const anchor = (heading: string) =>
  heading
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, '')
    .replace(/ /g, '-');

function anchorsOf(file: string): Set<string> {
  const text = readFileSync(file, 'utf8').replace(/```[\s\S]*?```/g, '');
  return new Set([...text.matchAll(/^#{1,6} (.+)$/gm)].map(([, heading]) => anchor(heading.trim())));
}

describe('links of the README and docs/', () => {
  for (const page of pages) {
    test(`${page} links to files and sections that exist`, () => {
      const text = readFileSync(join(ROOT, page), 'utf8').replace(/```[\s\S]*?```/g, '');
      const broken: string[] = [];
      for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
        if (/^[a-z]+:/.test(target)) continue;
        const [path, section] = target.split('#');
        const file = path === '' ? join(ROOT, page) : resolve(dirname(join(ROOT, page)), path);
        if (!existsSync(file)) broken.push(`${target} (no ${relative(ROOT, file)})`);
        else if (section !== undefined && file.endsWith('.md') && !anchorsOf(file).has(section)) broken.push(`${target} (no such section)`);
      }
      assert.deepEqual(broken, []);
    });
  }
});
