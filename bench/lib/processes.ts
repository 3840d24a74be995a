import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';

/** Service on one core, load generator on another, when the machine has two or more and taskset works. */
export const PINNING =
  availableParallelism() >= 2 && spawnSync('taskset', ['-c', '0', 'true']).status === 0 ? { service: '0', load: '1' } : undefined;

/** The V8 flags `npm start` runs the service with. */
export const SERVICE_NODE_FLAGS = ['--min-semi-space-size=32', '--max-semi-space-size=32'];

/** Runs `node [flags] <script> ...args` pinned to `core` (when pinning is possible). */
export function spawnNode(script: string, args: string[], env: Record<string, string | undefined>, core: string | undefined, flags: string[] = []): ChildProcess {
  const command = core ? 'taskset' : process.execPath;
  const commandArgs = core ? ['-c', core, process.execPath, ...flags, script, ...args] : [...flags, script, ...args];
  return spawn(command, commandArgs, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
}

export interface RunningServer {
  child: ChildProcess;
  url: string;
  output(): string;
  stop(): Promise<void>;
}

/** Starts a server script and waits for the line announcing its address. */
export async function startServer(
  script: string,
  args: string[],
  env: Record<string, string | undefined>,
  { core = PINNING?.service, flags = [] as string[] } = {},
): Promise<RunningServer> {
  const child = spawnNode(script, args, env, core, flags);
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const deadline = Date.now() + 600_000;
  for (;;) {
    const match = /listening at (http:\/\/127\.0\.0\.1:\d+)/i.exec(output);
    if (match) {
      return {
        child,
        url: match[1],
        output: () => output,
        async stop() {
          if (child.exitCode !== null) return;
          child.kill('SIGTERM');
          await once(child, 'exit');
        },
      };
    }
    if (child.exitCode !== null || Date.now() > deadline) throw new Error(`${script} did not start:\n${output.slice(-4000)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Resident set size of a process in MB (Linux). */
export function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return Math.round(kb / 102.4) / 10;
}

/** taskset execs the command, so the child's pid is the Node process itself. */
export const pidOf = (server: RunningServer) => server.child.pid!;
