import assert from 'node:assert/strict';
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before } from 'node:test';
import { shellBlocks } from '../helpers/doc-blocks.ts';
import { freePort } from '../helpers/server-process.ts';

// docs/api-guide.md's first block starts the whole local stack: the service and the payment
// provider stand-in. Tests run it as written (the install left out: they run in an installed
// checkout), with both on free ports that are not the defaults, given the way a reader would give
// them: PORT and PROVIDER_PORT in the environment.

export const GUIDE = join(import.meta.dirname, '../../docs/api-guide.md');

/** The guide's shell blocks, in order. */
export const guideBlocks = (): string[] => shellBlocks(GUIDE);

export interface GuideStack {
  /** The service's and the stand-in's addresses. */
  base: string;
  provider: string;
  /** Everything the first terminal showed so far. */
  log(): string;
  logFile: string;
  stop(): Promise<void>;
}

/**
 * The stack for a describe block: started (in a folder of its own) before its first test, stopped and
 * the folder removed after its last.
 */
export function guideStackForTests(label: string, env: Record<string, string> = {}): { readonly stack: GuideStack; dir: string } {
  const dir = mkdtempSync(join(tmpdir(), `${label}-`));
  let stack: GuideStack | undefined;
  before(async () => {
    stack = await startGuideStack(dir, env);
  });
  after(async () => {
    await stack?.stop();
    rmSync(dir, { recursive: true, force: true });
  });
  return {
    dir,
    get stack() {
      assert.ok(stack, 'the guide stack did not start');
      return stack;
    },
  };
}

/**
 * Runs shell blocks in bash as the reader does in the guide's second terminal: the stack's
 * addresses in place of the guide's, and each sign-up code read from the service's log a moment
 * after it was asked for, as the reader copies it from there. `name` names the script in `dir`;
 * `after` is a line run at the end. Answers what the blocks printed.
 */
export function runAsReader(stack: GuideStack, dir: string, name: string, blocks: readonly string[], { after = '', timeout = 90_000 } = {}): string {
  const script = blocks
    .join('\n')
    .replace('BASE=http://localhost:8080', `BASE=${stack.base}`)
    .replace('PROVIDER=http://127.0.0.1:9090', `PROVIDER=${stack.provider}`)
    .replace(/^OTP=\d+ .*$/gm, () => `sleep 0.3; OTP=$(grep -o 'sign-up code is [0-9]*' '${stack.logFile}' | tail -n 1 | grep -o '[0-9]*$')`);
  const file = join(dir, `${name}.sh`);
  writeFileSync(file, `set -euo pipefail\n${script}\n${after}\n`);
  return execFileSync('bash', [file], { encoding: 'utf8', timeout });
}

/** Runs the guide's start command in `dir` (its database and output go there) until the service listens. */
export async function startGuideStack(dir: string, env: Record<string, string> = {}): Promise<GuideStack> {
  const start = /^npm install && (npm run dev)$/.exec(guideBlocks()[0]);
  assert.ok(start, `the guide's first block starts the stack with npm run dev: ${guideBlocks()[0]}`);
  const [port, providerPort] = [await freePort(), await freePort()];
  const logFile = join(dir, 'first-terminal.log');
  const out = openSync(logFile, 'w');
  // A process group of its own, so stopping it stops npm, the stand-in and the service together.
  const child: ChildProcess = spawn('bash', ['-c', start[1]], {
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      PORT: String(port),
      PROVIDER_PORT: String(providerPort),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
      DATABASE_URL: `sqlite:${join(dir, 'guide.db')}`,
      ...env,
    },
    stdio: ['ignore', out, out],
    detached: true,
  });
  const exited = once(child, 'exit');
  const log = () => readFileSync(logFile, 'utf8');
  const stop = async () => {
    if (child.exitCode === null) {
      process.kill(-child.pid!, 'SIGKILL');
      await exited;
    }
  };
  const deadline = Date.now() + 60_000;
  while (!log().includes(`Server listening at http://127.0.0.1:${port}`)) {
    if (child.exitCode !== null || Date.now() > deadline) {
      await stop();
      assert.fail(`the guide's stack did not start:\n${log()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return { base: `http://127.0.0.1:${port}`, provider: `http://127.0.0.1:${providerPort}`, log, logFile, stop };
}
