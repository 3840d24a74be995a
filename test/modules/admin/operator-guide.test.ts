import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { missingTools, shellBlocks } from '../../helpers/doc-blocks.ts';

// The operator guide is copy-paste documentation: this runs its shell blocks, in order, against a
// fresh embedded server started as the guide says, so the guide breaks the build the day it stops
// being true.

const GUIDE = join(import.meta.dirname, '../../../docs/operator-guide.md');
const missing = missingTools(['bash', 'curl', 'jq']);

describe('docs/operator-guide.md', { skip: missing.length > 0 ? `needs ${missing.join(', ')}` : false }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'operator-guide-'));
  const logFile = join(dir, 'server.log');
  let server: ReturnType<typeof spawn>;
  let base = '';
  before(async () => {
    const log = openSync(logFile, 'w');
    server = spawn(process.execPath, ['src/server.ts'], {
      env: { PATH: process.env.PATH, HOST: '127.0.0.1', PORT: '0', LOG_LEVEL: 'info', DATABASE_URL: `sqlite:${join(dir, 'db.sqlite')}`, ADMIN_EMAILS: 'ops@example.com' },
      stdio: ['ignore', log, log],
    });
    const deadline = Date.now() + 60_000;
    while (!base) {
      base = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(readFileSync(logFile, 'utf8'))?.[1] ?? '';
      if (!base && Date.now() > deadline) assert.fail(`server did not start:\n${readFileSync(logFile, 'utf8')}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  });
  after(() => {
    server.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  });

  test('every command of the guide runs, and each job leaves its mark', () => {
    const blocks = shellBlocks(GUIDE);
    assert.match(blocks[0], /^ADMIN_EMAILS=ops@example.com npm start/, 'the first block starts the service, as this test did');
    const script = blocks
      .slice(1)
      .join('\n')
      .replace('BASE=http://localhost:8080', `BASE=${base}`)
      .replace(/^OTP=\d+ .*$/gm, () => `sleep 0.3; OTP=$(grep -o 'sign-up code is [0-9]*' '${logFile}' | tail -n 1 | grep -o '[0-9]*$')`);
    writeFileSync(join(dir, 'guide.sh'), `set -euo pipefail\n${script}\necho "ACTIONS=$(ops "$BASE/admin/audit" | jq -c '[.items[].action] | unique')"\n`);
    const output = execFileSync('bash', [join(dir, 'guide.sh')], { encoding: 'utf8', timeout: 60_000 });
    assert.match(output, /"ridesToday":/, output);
    assert.match(output, /\{"status":"CANCELLED","cancelledBy":"admin","cancellationFee":null\}/, output);
    assert.match(output, /\{"approval":"rejected","approvalReason":"Registration papers unreadable"\}/, output);
    assert.match(output, /\{"version":2,"mini":\{"base":60,/, output);
    assert.match(output, /\{"status":"resolved","resolvedBy":\d+\}/, output);
    assert.match(output, /\{"profile":"IN-MVAG-2025","ridesChecked":[1-9]\d*,"rules":\["base-covers-dead-mileage"/, output);
    assert.match(output, /\{"sampleSeconds":30,"retentionDays":35,"samples":\d+\}/, output);
    assert.match(output, /\{"offers":\d+,"requests":[1-9]\d*,"bands":6\}/, output);
    assert.match(output, /\{"status":"done","requests":([1-9]\d*),"replayed":\1\}/, output);
    assert.match(output, /\{"cited":true,"candidatePricing":"as was"\}/, output);
    assert.match(output, /ride_hailing_rides_today\{status="CANCELLED"\} 1/, output);
    assert.match(output, /ACTIONS=\["complaint.resolve","driver.approve","driver.reject","pricing.update","ride.cancel"\]/, output);
  });
});
