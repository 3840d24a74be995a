// What a measurement window cost in CPU: the service process, the PostgreSQL backends serving it
// (plus PostgreSQL's own background processes), and Redis, each divided by the operations completed.
// This is the figure that says how many cores a load needs, however the cores were shared.
import { Redis } from 'ioredis';
import pg from 'pg';
import { cpuBetween, cpuOfProcesses, processCpuMs, processName } from './cpu.ts';
import { round } from './stats.ts';

/** CPU milliseconds each part used (in a window, or per operation); a part not measured is absent. */
export interface Cpu {
  service: number;
  postgres?: number;
  redis?: number;
}

export interface CostMeter {
  /** Starts a window; the function it returns ends it and gives the CPU each part used in it. */
  start(): Promise<() => Promise<Cpu>>;
  close(): Promise<void>;
}

/**
 * A meter for the service process `pid` running with `env`. PostgreSQL is measured from /proc when
 * it runs on this machine: the backends whose application_name is the one in the service's
 * DATABASE_URL (run.ts names each bench database's connections), and the server's background
 * processes (WAL writer, checkpointer, autovacuum), which work for every client. Redis by INFO cpu:
 * the whole server, since Redis cannot say which client its time went to.
 */
export async function costMeter(pid: number, env: Record<string, string | undefined>): Promise<CostMeter> {
  const postgres = env.DATABASE_URL?.startsWith('postgres') ? await postgresProbe(env.DATABASE_URL) : undefined;
  const redis = env.REDIS_URL ? new Redis(env.REDIS_URL, { lazyConnect: true }) : undefined;
  await redis?.connect();
  const redisMs = async () => (redis ? redisCpuMs(await redis.info('cpu')) : undefined);
  return {
    async start() {
      const service = processCpuMs(pid) ?? 0;
      const backends = postgres && cpuOfProcesses(await postgres.pids());
      const redisBefore = await redisMs();
      return async () => {
        const backendsAfter = postgres && cpuOfProcesses(await postgres.pids());
        const redisAfter = await redisMs();
        return {
          service: (processCpuMs(pid) ?? service) - service,
          ...(backends && backendsAfter && { postgres: cpuBetween(backends, backendsAfter) }),
          ...(redisBefore !== undefined && redisAfter !== undefined && { redis: redisAfter - redisBefore }),
        };
      };
    },
    async close() {
      redis?.disconnect();
      await postgres?.close();
    },
  };
}

/** `used` over `operations`, in milliseconds per operation to the microsecond. */
export function perOperation(used: Cpu, operations: number): Cpu {
  const each = (ms: number) => round(ms / Math.max(1, operations), 3);
  return {
    service: each(used.service),
    ...(used.postgres !== undefined && { postgres: each(used.postgres) }),
    ...(used.redis !== undefined && { redis: each(used.redis) }),
  };
}

/** The sum of several windows' CPU (a part counts only when every window measured it). */
export function addCpu(windows: Cpu[]): Cpu {
  const sum = (part: keyof Cpu) => (windows.every((w) => w[part] !== undefined) ? windows.reduce((total, w) => total + w[part]!, 0) : undefined);
  const postgres = sum('postgres');
  const redis = sum('redis');
  return { service: sum('service')!, ...(postgres !== undefined && { postgres }), ...(redis !== undefined && { redis }) };
}

/** "service · PostgreSQL · Redis" ms per operation, "–" for a part the mode does not have. */
export function formatCpu(cpu: Cpu | undefined): string {
  if (!cpu) return '';
  const part = (ms: number | undefined) => (ms === undefined ? '–' : ms.toFixed(3));
  return `${part(cpu.service)} · ${part(cpu.postgres)} · ${part(cpu.redis)}`;
}

/** used_cpu_sys + used_cpu_user of INFO cpu (seconds, to the microsecond), in milliseconds. */
export function redisCpuMs(info: string): number {
  const seconds = (name: string) => Number(new RegExp(`^${name}:([\\d.]+)`, 'm').exec(info)?.[1] ?? Number.NaN);
  return (seconds('used_cpu_sys') + seconds('used_cpu_user')) * 1000;
}

/**
 * Lists the PostgreSQL processes to count, or undefined when the server's processes are not on this
 * machine (a remote server, another container): then PostgreSQL is not measured rather than guessed.
 */
async function postgresProbe(url: string): Promise<{ pids(): Promise<number[]>; close(): Promise<void> } | undefined> {
  const applicationName = new URL(url).searchParams.get('application_name');
  const probe = new URL(url);
  probe.searchParams.set('application_name', 'ride-bench-cost-probe');
  const client = new pg.Client({ connectionString: probe.toString() });
  await client.connect();
  const { rows } = await client.query<{ pid: number }>('select pg_backend_pid() as pid');
  if (!applicationName || processName(rows[0].pid) !== 'postgres') {
    await client.end();
    return undefined;
  }
  return {
    async pids() {
      const result = await client.query<{ pid: number }>(
        "select pid from pg_stat_activity where application_name = $1 or backend_type <> 'client backend'",
        [applicationName],
      );
      return result.rows.map((row) => row.pid);
    },
    close: () => client.end(),
  };
}
