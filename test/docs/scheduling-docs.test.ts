import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { missingTools, shellBlocks } from '../helpers/doc-blocks.ts';
import { guideBlocks, guideStackForTests, runAsReader } from './guide-stack.ts';

// docs/rides.md's "Scheduling" is copy-paste documentation: after the API guide's walkthrough (its
// rider and driver signed up, the driver free again), its shell block runs as written, in bash,
// against the same stack. Real time passes here, so the block shows what happens at booking.

const RIDES = join(import.meta.dirname, '../../docs/rides.md');

const missing = missingTools(['bash', 'curl', 'jq', 'npm', 'date']);

describe('docs/rides.md scheduling', { skip: missing.length > 0 ? `needs ${missing.join(', ')}` : false }, () => {
  const guide = guideStackForTests('scheduling-docs', { DISPATCH_BATCH_MS: '200' });

  test('a ride booked for tomorrow is held out of the requested list, shown to a driver near it, taken ahead, and free to cancel', () => {
    const blocks = shellBlocks(RIDES, '### Scheduling');
    assert.equal(blocks.length, 1);
    const output = runAsReader(guide.stack, guide.dir, 'scheduling', [...guideBlocks().slice(1), ...blocks]);
    const id = /"id": (\d+),\s*"status": "REQUESTED",\s*"driverId": \d+,\s*"scheduledAt": "[^"]+"/.exec(output);
    assert.ok(id, `taken ahead, still REQUESTED with the driver and its time: ${output}`);
    assert.match(output, /"status": "REQUESTED",\s*"scheduledAt": "\d{4}-\d\d-\d\dT\d\d:\d\d:00\.000Z",\s*"fare": \d+,\s*"surgeMultiplier": 1\s*}/, output);
    assert.match(output, /^0$/m, 'not in /rides/requested');
    assert.match(output, new RegExp(`"open": \\[\\s*${id[1]}\\s*\\],\\s*"taken": \\[\\]`), output);
    assert.match(output, /"status": "REQUESTED",\s*"cancellationFee": null\s*}/, output);
  });
});
