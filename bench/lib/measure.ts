// The service under test, measured window by window: throughput and latency (autocannon), the CPU
// the window cost the service, PostgreSQL and Redis, and what went wrong in it (failed requests and
// the service's own warnings).
import type { Row } from './context.ts';
import { addCpu, costMeter, perOperation, type CostMeter, type Cpu } from './cost.ts';
import { mergeSamples, serviceWarnings } from './failures.ts';
import { load, type LoadRequest, type LoadResult } from './load.ts';
import { pidOf, SERVICE_NODE_FLAGS, startServer, type RunningServer } from './processes.ts';

export interface Measurement extends LoadResult {
  /** CPU milliseconds each part used in the window. */
  cpu: Cpu;
  /** The service's warnings and errors printed during the window. */
  serviceLog: string[];
}

export interface ServiceUnderTest {
  server: RunningServer;
  url: string;
  /** One load window against the service (as load() does), measured. */
  measure(requests: LoadRequest[], options: { seconds: number; overallRate?: number }): Promise<Measurement>;
  stop(): Promise<void>;
}

/** Starts bench/service.ts with `args` and `env` (LOG_LEVEL=warn: what it prints is worth reading). */
export async function startService(args: string[], env: Record<string, string | undefined>): Promise<ServiceUnderTest> {
  const server = await startServer(new URL('../service.ts', import.meta.url).pathname, args, env, { flags: SERVICE_NODE_FLAGS });
  let meter: CostMeter;
  try {
    meter = await costMeter(pidOf(server), env);
  } catch (error) {
    await server.stop();
    throw error;
  }
  return {
    server,
    url: server.url,
    async measure(requests, options) {
      const printed = server.output().length;
      const stop = await meter.start();
      const result = await load(server.url, requests, options);
      const cpu = await stop();
      return { ...result, cpu, serviceLog: serviceWarnings(server.output().slice(printed)) };
    },
    async stop() {
      await meter.close();
      await server.stop();
    },
  };
}

/** What a row says about its measured windows: failed requests with their kinds and log lines, and CPU per operation. */
export function windowsSummary(windows: Measurement[]): Pick<Row, 'errors' | 'cpuMsPerOperation' | 'failures'> {
  const errors = windows.reduce((sum, w) => sum + w.errors + w.non2xx, 0);
  const serviceLog = windows.flatMap((w) => w.serviceLog);
  return {
    errors,
    cpuMsPerOperation: perOperation(
      addCpu(windows.map((w) => w.cpu)),
      windows.reduce((sum, w) => sum + w.total, 0),
    ),
    ...((errors > 0 || serviceLog.length > 0) && { failures: { samples: mergeSamples(windows.map((w) => w.failures)), serviceLog } }),
  };
}
