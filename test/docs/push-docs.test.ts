import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { after, before, describe, test } from 'node:test';
import { missingTools, shellBlocks } from '../helpers/doc-blocks.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { signUp } from '../helpers/factories.ts';

// docs/push.md is copy-paste documentation: this runs its shell blocks, in order, against a test app on
// a real port (in whichever mode the environment selects), so the page breaks the build the day it
// stops being true.

const PAGE = join(import.meta.dirname, '../../docs/push.md');
const missing = missingTools(['bash', 'curl', 'jq', 'node']);

describe('docs/push.md', { skip: missing.length > 0 ? `needs ${missing.join(', ')}` : false }, () => {
  let t: TestApp;
  let base: string;
  before(async () => {
    t = await createTestApp();
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  });
  after(() => t.close());

  test('every command of the page runs, and each answers as the page says', async () => {
    const rider = await signUp(t);
    const blocks = shellBlocks(PAGE);
    assert.match(blocks[0], /^BASE=http:\/\/localhost:8080\n/);
    const script = `set -euo pipefail\nRIDER=${rider.token}\n${blocks.join('\n').replace('BASE=http://localhost:8080', `BASE=${base}`)}`;
    // Not execFileSync: the service answering the script runs in this process.
    const { stdout: output } = await promisify(execFile)('bash', ['-c', script], { encoding: 'utf8', timeout: 30_000 });
    const lines = output.trim().split('\n');
    assert.deepEqual(lines.slice(1), [
      '87',
      '{"subscriptions":1}',
      '{"subscriptions":1}',
      '{"statusCode":400,"code":"INVALID_PUSH_SUBSCRIPTION"}',
      'This browser will no longer be sent messages.',
      'This browser was not subscribed.',
    ], output);
    assert.match(lines[0], /^[A-Za-z0-9_-]{43}$/, 'a new VAPID key');
  });
});
