// What every benchmark scenario shares: the run's settings, the row it reports, the mode it runs in.
// A scenario is a function (mode, env) => rows; run.ts calls each one per mode and prints the table.
import type { Cpu } from './cost.ts';
import type { FailureSample } from './failures.ts';

const argv = process.argv.slice(2).join(' ');
export const quick = argv.includes('--quick');
const only = /--only=([\w,]+)/.exec(argv)?.[1]?.split(',');
/** Whether `--only=` (absent: everything) names the scenario. */
export const wanted = (scenario: string) => !only || only.includes(scenario);
/** Whether this run measures only some scenarios (`--only=`): its results must not replace a full run's. */
export const partial = only !== undefined;

export const SETTINGS = quick
  ? { warmup: 1, seconds: 2, repeats: 1, rides: 1_000, nearbyDrivers: 100_000, scalingDrivers: 200_000, insightsRides: 100_000, soakSeconds: 10, soakPairs: 20 }
  : { warmup: 5, seconds: 10, repeats: 3, rides: 1_000, nearbyDrivers: 100_000, scalingDrivers: 1_000_000, insightsRides: 1_000_000, soakSeconds: 600, soakPairs: 50 };

/** One line of the results table. */
export interface Row {
  scenario: string;
  mode: string;
  requestsPerSecond?: number;
  p50?: number;
  p99?: number;
  errors?: number;
  spreadPercent?: number;
  baseline?: string;
  baselineValue?: number;
  ratio?: number;
  /** CPU milliseconds per completed request of the service, PostgreSQL and Redis (bench/lib/cost.ts). */
  cpuMsPerOperation?: Cpu;
  /** What the failed requests were, and what the service logged at warn or above meanwhile. */
  failures?: { samples: FailureSample[]; serviceLog: string[] };
  value?: string;
  target: string;
  met: boolean;
}

export const log = (message: string) => console.error(`[bench] ${message}`);

/** Where the service under test keeps its state: embedded (SQLite, in-process) or production (PostgreSQL + Redis). */
export interface Mode {
  name: 'embedded' | 'production';
  /** The service's environment in this mode (without DATABASE_URL). */
  env: Record<string, string | undefined>;
  /** A fresh, empty database URL for one purpose. */
  freshDatabase(label: string): Promise<string>;
  resetRedis(): Promise<void>;
  /** Drops the databases this run created. */
  cleanup(): Promise<void>;
}

/** A scenario measures one thing in one mode on a fresh database (`env.DATABASE_URL`) and returns its rows. */
export type Scenario = (mode: Mode, env: Record<string, string | undefined>) => Promise<Row[]>;
