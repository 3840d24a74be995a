import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

// Docs with curl examples are run by tests as written: these read a page's shell blocks and say which
// of the tools the blocks need are missing on this machine (CI installs them all).

/**
 * The ```sh blocks of a page, in order, trimmed; with `heading` (say `## Receipts`) only those of that
 * section: from the heading to the next heading of its level or above.
 */
export function shellBlocks(path: string, heading?: string): string[] {
  let text = readFileSync(path, 'utf8');
  if (heading) {
    const start = text.indexOf(`${heading}\n`);
    assert.ok(start >= 0, `${path} has a section "${heading}"`);
    const level = /^#+/.exec(heading)![0].length;
    const rest = text.slice(start + heading.length);
    const end = rest.search(new RegExp(`\\n#{1,${level}} `));
    text = end < 0 ? rest : rest.slice(0, end);
  }
  return [...text.matchAll(/```sh\n([\s\S]*?)```/g)].map((match) => match[1].trim());
}

/** The tools of `tools` this machine lacks (for a describe's `skip`: a docs test needs them all). */
export const missingTools = (tools: string[]): string[] =>
  tools.filter((tool) => {
    try {
      execFileSync('sh', ['-c', `command -v ${tool}`], { stdio: 'ignore' });
      return false;
    } catch {
      return true;
    }
  });
