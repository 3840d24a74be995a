import { once } from 'node:events';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FailureSample } from './failures.ts';
import { PINNING, spawnNode } from './processes.ts';

export interface LoadRequest {
  method: 'GET' | 'POST' | 'PUT';
  path: string;
  headers?: Record<string, string>;
  body?: string;
}

export interface LoadResult {
  requestsPerSecond: number;
  p50: number;
  p99: number;
  mean: number;
  total: number;
  errors: number;
  non2xx: number;
  /** The kinds of non-2xx answers and transport errors, with how often each came. */
  failures: FailureSample[];
}

const scratch = mkdtempSync(join(tmpdir(), 'bench-load-'));
let specs = 0;

/** One autocannon run in a child process on the load core. */
export async function load(url: string, requests: LoadRequest[], options: { connections?: number; seconds: number; overallRate?: number }): Promise<LoadResult> {
  const file = join(scratch, `spec-${specs++}.json`);
  writeFileSync(file, JSON.stringify({ url, connections: options.connections ?? 50, seconds: options.seconds, overallRate: options.overallRate, requests }));
  const child = spawnNode(new URL('./load-worker.ts', import.meta.url).pathname, [file], {}, PINNING?.load);
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const [code] = (await once(child, 'exit')) as [number | null];
  const line = output.trim().split('\n').at(-1) ?? '';
  if (code !== 0 || !line.startsWith('{')) throw new Error(`load generator failed (${code}):\n${output.slice(-2000)}`);
  return JSON.parse(line) as LoadResult;
}

export const json = (value: unknown) => JSON.stringify(value);
export const bearer = (token: string) => ({ authorization: `Bearer ${token}`, 'content-type': 'application/json' });
