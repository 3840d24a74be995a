// CPU time of processes, read from /proc (Linux): what a measurement window cost a process,
// whoever else shared the cores meanwhile. Throughput on shared cores mixes the service's own cost
// with the database's; CPU time per operation keeps them apart.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

/** Clock ticks per second, the unit of /proc/<pid>/stat's times (100 on every common Linux). */
const TICKS_PER_SECOND = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout?.trim()) || 100;

/**
 * User plus system CPU milliseconds in a /proc/<pid>/stat line: every thread of the process (the
 * service's libuv pool and V8's helpers included), none of its children.
 */
export function cpuMsOfStat(stat: string): number {
  // The command name, in parentheses, may hold spaces and parentheses itself: count fields after the last ')'.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // Fields 14 (utime) and 15 (stime) of proc(5); the first after ')' is field 3.
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
}

/** CPU milliseconds the process has used so far, undefined when it is gone (or there is no /proc). */
export function processCpuMs(pid: number): number | undefined {
  try {
    return cpuMsOfStat(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return undefined;
  }
}

/** The command name of a process (`postgres`, `redis-server`), undefined when it is gone. */
export function processName(pid: number): string | undefined {
  try {
    return readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
  } catch {
    return undefined;
  }
}

/** CPU milliseconds used so far by each of the processes still there, by pid. */
export function cpuOfProcesses(pids: Iterable<number>): Map<number, number> {
  const used = new Map<number, number>();
  for (const pid of pids) {
    const ms = processCpuMs(pid);
    if (ms !== undefined) used.set(pid, ms);
  }
  return used;
}

/**
 * CPU milliseconds a group of processes used between two readings. A process that started in
 * between counts whole; one that ended in between is missed (its time went with it), which is why
 * the benchmark counts long-lived processes: the service, pooled PostgreSQL backends, Redis.
 */
export function cpuBetween(before: Map<number, number>, after: Map<number, number>): number {
  let total = 0;
  // Never below zero: a pid the system reused in between is a new process, not time given back.
  for (const [pid, ms] of after) total += Math.max(0, ms - (before.get(pid) ?? 0));
  return total;
}
