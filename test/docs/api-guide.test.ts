import assert from 'node:assert/strict';
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { freePort } from '../helpers/server-process.ts';

// The API guide is copy-paste documentation: this starts what its first two blocks start (the
// provider stand-in, then the service with the environment the guide gives it) and runs every
// other block, in order, in bash, so the guide breaks the build the day it stops being true.

const GUIDE = join(import.meta.dirname, '../../docs/api-guide.md');
const tools = ['bash', 'curl', 'jq'].filter((tool) => {
  try {
    execFileSync('sh', ['-c', `command -v ${tool}`], { stdio: 'ignore' });
    return false;
  } catch {
    return true;
  }
});


async function waitForLine(file: string, pattern: RegExp, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (!pattern.test(readFileSync(file, 'utf8'))) {
    if (child.exitCode !== null || Date.now() > deadline) assert.fail(`${pattern} never came:\n${readFileSync(file, 'utf8')}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('docs/api-guide.md', { skip: tools.length > 0 ? `needs ${tools.join(', ')}` : false }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'api-guide-'));
  const serverLog = join(dir, 'server.log');
  const providerLog = join(dir, 'provider.log');
  const blocks = [...readFileSync(GUIDE, 'utf8').matchAll(/```sh\n([\s\S]*?)```/g)].map((match) => match[1].trim());
  const children: ChildProcess[] = [];
  let base = '';
  let provider = '';

  before(async () => {
    assert.match(blocks[0], /^npm install && npm run dev:provider$/, 'the first block starts the provider stand-in');
    const start = /^((?:[A-Z_]+=\S+ )+)npm start$/.exec(blocks[1]);
    assert.ok(start, `the second block starts the service with its environment: ${blocks[1]}`);
    const guideEnv: Record<string, string> = Object.fromEntries(start[1].trim().split(' ').map((pair) => pair.split(/=(.*)/s).slice(0, 2)));
    const [providerPort, serverPort] = [await freePort(), await freePort()];
    base = `http://127.0.0.1:${serverPort}`;
    provider = `http://127.0.0.1:${providerPort}`;

    const providerOut = openSync(providerLog, 'w');
    const stand = spawn(process.execPath, ['scripts/dev-provider.ts', '--port', String(providerPort), '--webhook-url', `${base}/payments/webhook`], {
      env: { PATH: process.env.PATH },
      stdio: ['ignore', providerOut, providerOut],
    });
    children.push(stand);
    await waitForLine(providerLog, /listening at/, stand);
    // The stand-in prints the values the guide copies: they must still be the ones it uses.
    for (const [name, value] of Object.entries(guideEnv)) {
      if (name !== 'RAZORPAY_API_URL') assert.match(readFileSync(providerLog, 'utf8'), new RegExp(`${name}=${value}\\b`), `${name} as the stand-in prints it`);
    }

    const serverOut = openSync(serverLog, 'w');
    const server = spawn(process.execPath, ['src/server.ts'], {
      env: {
        PATH: process.env.PATH,
        ...guideEnv,
        RAZORPAY_API_URL: provider,
        HOST: '127.0.0.1',
        PORT: String(serverPort),
        LOG_LEVEL: 'info',
        DATABASE_URL: `sqlite:${join(dir, 'db.sqlite')}`,
        DISPATCH_BATCH_MS: '200',
      },
      stdio: ['ignore', serverOut, serverOut],
    });
    children.push(server);
    await waitForLine(serverLog, /Server listening at/, server);
  });
  after(() => {
    for (const child of children) child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  });

  test('every command of the walkthrough runs, and the ride ends completed, paid and rated', () => {
    assert.match(blocks[2], /^BASE=http:\/\/localhost:8080\nPROVIDER=http:\/\/127\.0\.0\.1:9090\n/);
    const script = blocks
      .slice(2)
      .join('\n')
      .replace('BASE=http://localhost:8080', `BASE=${base}`)
      .replace('PROVIDER=http://127.0.0.1:9090', `PROVIDER=${provider}`)
      // The reader copies the code from the log; so does this, a moment after asking for it.
      .replace(/^OTP=\d+ .*$/gm, () => `sleep 0.3; OTP=$(grep -o 'sign-up code is [0-9]*' '${serverLog}' | tail -n 1 | grep -o '[0-9]*$')`);
    writeFileSync(
      join(dir, 'guide.sh'),
      `set -euo pipefail\n${script}\necho "RIDE=$(curl -s $BASE/rides/history -H "authorization: Bearer $RIDER" | jq -c '.[0] | {status,paymentStatus,riderRating}')"\n`,
    );
    const output = execFileSync('bash', [join(dir, 'guide.sh')], { encoding: 'utf8', timeout: 60_000 });
    assert.match(output, /"success": true/, `the payment was verified:\n${output}`);
    assert.match(output, /RIDE=\{"status":"COMPLETED","paymentStatus":"PAID","riderRating":5\}/, output);
  });
});
