import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { missingTools, shellBlocks } from '../helpers/doc-blocks.ts';
import { guideBlocks, guideStackForTests, runAsReader } from './guide-stack.ts';

// docs/rides.md's "Stops" and "Changing the destination" are copy-paste documentation: after the API
// guide's walkthrough (its rider and driver signed up, the driver free again), their shell blocks
// run as written, in bash, against the same stack.

const RIDES = join(import.meta.dirname, '../../docs/rides.md');

const missing = missingTools(['bash', 'curl', 'jq', 'npm']);

describe('docs/rides.md stops and destination changes', { skip: missing.length > 0 ? `needs ${missing.join(', ')}` : false }, () => {
  const guide = guideStackForTests('stops-docs', { DISPATCH_BATCH_MS: '200' });

  test('a ride with a stop is priced through it, the stop is marked, and a destination change applies once and prices the new route', () => {
    const stops = shellBlocks(RIDES, '### Stops');
    const change = shellBlocks(RIDES, '### Changing the destination');
    assert.deepEqual([stops.length, change.length], [1, 1]);
    const output = runAsReader(guide.stack, guide.dir, 'stops', [...guideBlocks().slice(1), ...stops, ...change]);
    assert.match(output, /"stops": 1,\s*"stopsFare": 0\s*}/, output);
    assert.match(output, /"place": "Richmond Town pharmacy",\s*"reachedAt": "[^"]+",\s*"leftAt": null/, output);
    assert.match(output, /"quoteId": "[0-9a-f-]{36}"/, output);
    assert.match(output, /"dropLocation": "Silk Board"/, output);
    assert.match(output, /^QUOTE_USED$/m, output);
    assert.match(output, /"recomputed": true,\s*"recomputeReason": "the rider changed the destination to Silk Board: /, output);
  });
});
