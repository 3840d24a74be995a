import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { test } from 'node:test';
import { Redis } from 'ioredis';
import pg from 'pg';
import { addCpu, costMeter, formatCpu, perOperation, redisCpuMs } from '../../bench/lib/cost.ts';
import { POSTGRES_URL, productionServicesMissing, REDIS_URL } from '../helpers/production.ts';

test("Redis's CPU time is read from INFO cpu, user plus system, in milliseconds", () => {
  const info = '# CPU\r\nused_cpu_sys:0.361155\r\nused_cpu_user:0.632128\r\nused_cpu_sys_children:0.000000\r\nused_cpu_user_children:0.000000\r\n';
  assert.equal(Math.round(redisCpuMs(info) * 1000), 993_283);
});

test('windows add up part by part, and a part is shown per operation only when every window measured it', () => {
  const total = addCpu([{ service: 10, postgres: 4, redis: 1 }, { service: 20, redis: 2 }]);
  assert.deepEqual(total, { service: 30, redis: 3 });
  assert.deepEqual(perOperation(total, 6_000), { service: 0.005, redis: 0.001 });
  assert.equal(formatCpu(perOperation(total, 6_000)), '0.005 · – · 0.001');
  assert.equal(formatCpu(undefined), '', 'rows without load show nothing');
});

const missing = existsSync('/proc/self/stat') ? await productionServicesMissing() : 'needs /proc (Linux)';

test('a window counts the service process, the PostgreSQL backend of its named connections, and Redis', { skip: missing }, async () => {
  const applicationName = `cost_${randomBytes(4).toString('hex')}`;
  const url = new URL(POSTGRES_URL);
  url.searchParams.set('application_name', applicationName);
  const service = new pg.Client({ connectionString: url.toString() });
  await service.connect();
  const redis = new Redis(REDIS_URL);
  // This test process stands in for the service.
  const meter = await costMeter(process.pid, { DATABASE_URL: url.toString(), REDIS_URL });
  try {
    // Warm the backend's pid into the meter's first list, as the service's pool is when a window starts.
    await service.query('select 1');
    const stop = await meter.start();
    await service.query('set max_parallel_workers_per_gather = 0');
    await service.query('select count(*) from generate_series(1, 3000000)');
    await Promise.all(Array.from({ length: 2_000 }, (_, i) => redis.set(`bench-cost-${applicationName}-${i % 10}`, i)));
    const start = process.cpuUsage();
    while (process.cpuUsage(start).user < 100_000);
    const used = await stop();
    assert.ok(used.service >= 80, `service ${used.service} ms`);
    assert.ok(used.postgres! >= 50, `the backend counting three million rows: ${used.postgres} ms`);
    assert.ok(used.redis! > 0, `Redis ${used.redis} ms`);
  } finally {
    await meter.close();
    await service.end();
    await redis.del(...Array.from({ length: 10 }, (_, i) => `bench-cost-${applicationName}-${i}`));
    redis.disconnect();
  }
});
