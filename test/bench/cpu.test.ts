import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { test } from 'node:test';
import { cpuBetween, cpuMsOfStat, cpuOfProcesses, processCpuMs, processName } from '../../bench/lib/cpu.ts';

const skip = existsSync('/proc/self/stat') ? false : 'needs /proc (Linux)';

test('reads its own process CPU time growing while it spins', { skip }, () => {
  const before = processCpuMs(process.pid)!;
  // Spin until the kernel's own accounting (getrusage) says 200 ms of CPU went by, however busy the machine is.
  const start = process.cpuUsage();
  let spent = 0;
  while (spent < 200_000) {
    const { user, system } = process.cpuUsage(start);
    spent = user + system;
  }
  const after = processCpuMs(process.pid)!;
  // /proc counts in clock ticks (10 ms): allow a tick or two of rounding.
  assert.ok(after - before >= 180, `grew by ${after - before} ms`);
  assert.ok(after - before < 1_000, `grew by ${after - before} ms: about what was spent, no more`);
});

test('a process that has ended reads as gone, and a group counts those still there', { skip }, async () => {
  // Not node: it names its main thread MainThread once started (some versions), so its name depends on when it is read.
  const child = spawn('sleep', ['60'], { stdio: 'ignore' });
  await once(child, 'spawn');
  assert.equal(processName(child.pid!), 'sleep');
  assert.deepEqual([...cpuOfProcesses([process.pid, child.pid!]).keys()], [process.pid, child.pid!]);
  child.kill();
  await once(child, 'exit');
  assert.equal(processCpuMs(child.pid!), undefined);
  assert.equal(processName(child.pid!), undefined);
  assert.deepEqual([...cpuOfProcesses([process.pid, child.pid!]).keys()], [process.pid]);
});

test('the stat line is read after the command name, whatever the name holds', () => {
  // proc(5): pid (comm) state ppid pgrp session tty tpgid flags minflt cminflt majflt cmajflt utime stime cutime cstime ...
  const stat = '4242 (a (b) c) S 1 4242 4242 0 -1 4194560 900 0 0 0 1234 566 7 8 20 0 11 0';
  assert.equal(cpuMsOfStat(stat), (1234 + 566) * 10, 'utime + stime in ticks of 10 ms, children not counted');
});

test('a window counts what each process used in it: a new process whole, an ended one not at all', () => {
  const before = new Map([[1, 100], [2, 50], [3, 70]]);
  const after = new Map([[1, 130], [2, 55], [4, 20]]);
  assert.equal(cpuBetween(before, after), 30 + 5 + 20);
  assert.equal(cpuBetween(new Map([[5, 900]]), new Map([[5, 10]])), 0, 'a reused pid gives no negative time');
});
