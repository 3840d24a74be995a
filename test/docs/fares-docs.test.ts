import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { missingTools, shellBlocks } from '../helpers/doc-blocks.ts';
import { guideBlocks, guideStackForTests, runAsReader } from './guide-stack.ts';

// The receipts of docs/payments.md and the earnings of docs/rides.md are copy-paste documentation
// too: after the API guide's walkthrough (a ride completed, paid and rated), their shell blocks run
// as written, in bash, against the same stack: the guide's ride's receipt, then a ride with waiting,
// a toll and a night drop (issue 28's "done when"), then the driver's earnings of both.

const DOCS = join(import.meta.dirname, '../../docs');

const missing = missingTools(['bash', 'curl', 'jq', 'npm']);

describe('docs/payments.md receipts and docs/rides.md earnings', { skip: missing.length > 0 ? `needs ${missing.join(', ')}` : false }, () => {
  const guide = guideStackForTests('fares-docs', { DISPATCH_BATCH_MS: '200', ADMIN_EMAILS: 'ops@example.com' });

  test("the guide's ride's receipt and a ride with waiting, a toll and a night drop verify and recompute to what was charged, and the driver's earnings show both", () => {
    const receipts = shellBlocks(join(DOCS, 'payments.md'), '## Receipts anyone can check');
    const tripThatHappened = shellBlocks(join(DOCS, 'payments.md'), '## A ride with waiting, a toll and a night drop');
    const earnings = shellBlocks(join(DOCS, 'rides.md'), '### Receipts and driver earnings');
    assert.deepEqual([receipts.length, tripThatHappened.length, earnings.length], [1, 1, 1]);
    // The reader saves the receipt where they are; the test keeps its checkout clean.
    const blocks = [...guideBlocks().slice(1), ...receipts, ...tripThatHappened, ...earnings].map((block) => block.replaceAll(' receipt.json', ` ${join(guide.dir, 'receipt.json')}`));
    const output = runAsReader(guide.stack, guide.dir, 'fares', blocks);
    assert.match(output, /"crv": "Ed25519"/, output);
    assert.equal(output.match(/signature: OK \(key [\w-]+\)/g)?.length, 2, output);
    assert.match(output, /fare: OK \(ride \d+: \d+ INR recomputed from pricing version 1/, output);
    assert.equal(output.match(/^OK$/gm)?.length, 2, output);
    // The night ride (receipt.json is its receipt now): charged what its receipt says, which has every part and recomputes from version 2.
    const receipt = JSON.parse(readFileSync(join(guide.dir, 'receipt.json'), 'utf8'));
    const { fare, pricingVersion, inputs, breakdown } = receipt.receipt;
    assert.equal(pricingVersion, 2);
    assert.deepEqual([inputs.night, inputs.tollsInInr], [true, 120]);
    assert.ok(inputs.waitingMinutes >= 1, `waited ${inputs.waitingMinutes} started minutes`);
    const parts = breakdown.map((p: { part: string }) => p.part);
    for (const part of ['waiting', 'night', 'tolls']) assert.ok(parts.includes(part), `the receipt's parts ${parts} name ${part}`);
    assert.match(output, new RegExp(`^\\{"fare":${fare},"parts":`, 'm'), 'the completion charged what the receipt says');
    assert.match(output, new RegExp(`fare: OK \\(ride \\d+: ${fare} INR recomputed from pricing version 2`), output);
    assert.match(output, new RegExp(`"driverAmountInInr": ${receipt.receipt.driverAmountInInr}[,\\n]`), 'the earnings show the receipt\'s driver part');
    assert.match(output, /"rides": 2,/, output);
  });
});
