import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './server-process.ts';

/** Why a private Redis cannot be started here, or undefined when it can. */
export const redisServerMissing = spawnSync('redis-server', ['--version']).error ? 'redis-server is not installed' : undefined;

/**
 * A `redis-server` of one test's own, so stopping, freezing or emptying it disturbs nobody. With
 * `persistent`, it writes every command to an append-only file and comes back from a stop with its data.
 */
export class PrivateRedis {
  readonly port: number;
  readonly #dir: string;
  readonly #persistent: boolean;
  #child: ChildProcess;

  private constructor(port: number, dir: string, persistent: boolean, child: ChildProcess) {
    this.port = port;
    this.#dir = dir;
    this.#persistent = persistent;
    this.#child = child;
  }

  static async start(options: { persistent?: boolean } = {}): Promise<PrivateRedis> {
    const port = await freePort();
    const dir = mkdtempSync(join(tmpdir(), 'ride-hailing-redis-'));
    const persistent = options.persistent === true;
    return new PrivateRedis(port, dir, persistent, await launch(port, dir, persistent));
  }

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  /** Killed at once, as a crash would (a persistent one keeps what it wrote). */
  async stop(): Promise<void> {
    if (this.#child.exitCode !== null || this.#child.signalCode !== null) return;
    this.#child.kill('SIGCONT');
    this.#child.kill('SIGKILL');
    await once(this.#child, 'exit');
  }

  /** Started again on the same port: empty, unless persistent. */
  async restart(): Promise<void> {
    await this.stop();
    this.#child = await launch(this.port, this.#dir, this.#persistent);
  }

  /** Stops answering without closing a connection (SIGSTOP), as a hung host would. */
  freeze(): void {
    this.#child.kill('SIGSTOP');
  }

  thaw(): void {
    this.#child.kill('SIGCONT');
  }

  async remove(): Promise<void> {
    await this.stop();
    rmSync(this.#dir, { recursive: true, force: true });
  }
}

async function launch(port: number, dir: string, persistent: boolean): Promise<ChildProcess> {
  const persistence = persistent ? ['--appendonly', 'yes', '--appendfsync', 'always'] : ['--appendonly', 'no'];
  const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--dir', dir, ...persistence], { stdio: 'pipe' });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const deadline = Date.now() + 10_000;
  while (!output.includes('Ready to accept connections')) {
    if (Date.now() > deadline || child.exitCode !== null) {
      child.kill('SIGKILL');
      throw new Error(`redis-server did not start:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return child;
}
