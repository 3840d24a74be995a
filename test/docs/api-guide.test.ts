import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';

// The API guide is copy-paste documentation: this runs its commands, in order, against a fresh
// embedded server, so the guide breaks the build the day it stops being true.

const GUIDE = join(import.meta.dirname, '../../docs/api-guide.md');
const tools = ['bash', 'curl', 'jq'].filter((tool) => {
  try {
    execFileSync('sh', ['-c', `command -v ${tool}`], { stdio: 'ignore' });
    return false;
  } catch {
    return true;
  }
});

describe('docs/api-guide.md', { skip: tools.length > 0 ? `needs ${tools.join(', ')}` : false }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'api-guide-'));
  const logFile = join(dir, 'server.log');
  let server: ReturnType<typeof spawn>;
  let base = '';
  before(async () => {
    const log = openSync(logFile, 'w');
    server = spawn(process.execPath, ['src/server.ts'], {
      env: { PATH: process.env.PATH, HOST: '127.0.0.1', PORT: '0', LOG_LEVEL: 'info', DATABASE_URL: `sqlite:${join(dir, 'db.sqlite')}`, DISPATCH_BATCH_MS: '200' },
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

  test('every command of the walkthrough runs, and the ride ends completed and rated', () => {
    const blocks = [...readFileSync(GUIDE, 'utf8').matchAll(/```sh\n([\s\S]*?)```/g)].map((match) => match[1]);
    // The first block is `npm install && npm start`, already running; the reader copies the code from the log.
    const script = blocks
      .slice(1)
      .join('\n')
      .replace('BASE=http://localhost:8080', `BASE=${base}`)
      .replace(/^OTP=\d+ .*$/gm, () => `sleep 0.3; OTP=$(grep -o 'sign-up code is [0-9]*' '${logFile}' | tail -n 1 | grep -o '[0-9]*$')`);
    writeFileSync(join(dir, 'guide.sh'), `set -euo pipefail\n${script}\necho "RIDE=$(curl -s $BASE/rides/history -H "authorization: Bearer $RIDER" | jq -c '.[0] | {status,riderRating}')"\n`);
    const output = execFileSync('bash', [join(dir, 'guide.sh')], { encoding: 'utf8', timeout: 60_000 });
    assert.match(output, /RIDE=\{"status":"COMPLETED","riderRating":5\}/, output);
  });
});
