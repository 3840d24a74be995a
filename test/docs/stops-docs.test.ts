import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { missingTools, shellBlocks } from '../helpers/doc-blocks.ts';
import { guideBlocks, startGuideStack, type GuideStack } from './guide-stack.ts';

// docs/rides.md's "Stops" and "Changing the destination" are copy-paste documentation: after the API
// guide's walkthrough (its rider and driver signed up, the driver free again), their shell blocks
// run as written, in bash, against the same stack.

const RIDES = join(import.meta.dirname, '../../docs/rides.md');

const missing = missingTools(['bash', 'curl', 'jq', 'npm']);

describe('docs/rides.md stops and destination changes', { skip: missing.length > 0 ? `needs ${missing.join(', ')}` : false }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'stops-docs-'));
  let stack: GuideStack;

  before(async () => {
    stack = await startGuideStack(dir, { DISPATCH_BATCH_MS: '200' });
  });
  after(async () => {
    await stack?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  test('a ride with a stop is priced through it, the stop is marked, and a destination change applies once and prices the new route', () => {
    const stops = shellBlocks(RIDES, '### Stops');
    const change = shellBlocks(RIDES, '### Changing the destination');
    assert.deepEqual([stops.length, change.length], [1, 1]);
    const script = [...guideBlocks().slice(1), ...stops, ...change]
      .join('\n')
      .replace('BASE=http://localhost:8080', `BASE=${stack.base}`)
      .replace('PROVIDER=http://127.0.0.1:9090', `PROVIDER=${stack.provider}`)
      .replace(/^OTP=\d+ .*$/gm, () => `sleep 0.3; OTP=$(grep -o 'sign-up code is [0-9]*' '${stack.logFile}' | tail -n 1 | grep -o '[0-9]*$')`);
    writeFileSync(join(dir, 'stops.sh'), `set -euo pipefail\n${script}\n`);
    const output = execFileSync('bash', [join(dir, 'stops.sh')], { encoding: 'utf8', timeout: 90_000 });
    assert.match(output, /"stops": 1,\s*"stopsFare": 0\s*}/, output);
    assert.match(output, /"place": "Richmond Town pharmacy",\s*"reachedAt": "[^"]+",\s*"leftAt": null/, output);
    assert.match(output, /"quoteId": "[0-9a-f-]{36}"/, output);
    assert.match(output, /"dropLocation": "Silk Board"/, output);
    assert.match(output, /^QUOTE_USED$/m, output);
    assert.match(output, /"recomputed": true,\s*"recomputeReason": "the rider changed the destination to Silk Board: /, output);
  });
});
