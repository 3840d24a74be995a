import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { missingTools } from '../helpers/doc-blocks.ts';
import { guideBlocks, guideStackForTests, runAsReader } from './guide-stack.ts';

// The API guide is copy-paste documentation: this starts the stack its first block starts (the
// service and the payment provider stand-in, on ports that are not the defaults) and runs every
// other block, in order, in bash, so the guide breaks the build the day it stops being true.

const tools = missingTools(['bash', 'curl', 'jq', 'npm']);

describe('docs/api-guide.md', { skip: tools.length > 0 ? `needs ${tools.join(', ')}` : false }, () => {
  const guide = guideStackForTests('api-guide', { DISPATCH_BATCH_MS: '200' });
  const blocks = guideBlocks();

  test('every command of the walkthrough runs, and the ride ends completed, paid and rated', () => {
    assert.match(blocks[1], /^BASE=http:\/\/localhost:8080\nPROVIDER=http:\/\/127\.0\.0\.1:9090\n/);
    const output = runAsReader(guide.stack, guide.dir, 'guide', blocks.slice(1), {
      after: `echo "RIDE=$(curl -s $BASE/rides/history -H "authorization: Bearer $RIDER" | jq -c '.[0] | {status,paymentStatus,riderRating}')"`,
      timeout: 60_000,
    });
    assert.match(output, /"success": true/, `the payment was verified:\n${output}`);
    assert.match(output, /RIDE=\{"status":"COMPLETED","paymentStatus":"PAID","riderRating":5\}/, output);
    // The stand-in's webhooks reached the service on its non-default port: it derived the address from PORT.
    assert.doesNotMatch(guide.stack.log(), /webhook .* failed/, guide.stack.log());
    assert.match(guide.stack.log(), /"route":"\/payments\/webhook"/, 'a webhook reached the service');
    assert.match(guide.stack.log(), new RegExp(`Webhooks go to: +${guide.stack.base.replace(/[.]/g, '\\.')}/payments/webhook`));
  });
});
