import type { FastifyServerOptions } from 'fastify';
import type { Clock } from './platform/clock.ts';
import type { DriverLocationIndex } from './platform/geo/driver-index.ts';
import type { DrainState } from './platform/health.ts';
import type { RealtimeLimits } from './platform/realtime/limits.ts';

/** What buildApp takes besides the configuration: the process's own pieces, and what tests and the benchmark replace. */
export interface AppOptions {
  /** Time source; tests pass one they can move. */
  clock?: Clock;
  /** Overrides the pino logger built from config (tests capture or silence it). */
  logger?: FastifyServerOptions['logger'];
  /** A driver location index filled beforehand (the benchmark's bulk loader); chosen from config otherwise. */
  driverIndex?: DriverLocationIndex;
  /** Limits of live connections (tests shrink them); REALTIME_LIMITS otherwise. */
  realtime?: Partial<RealtimeLimits>;
  /** Where the process is in its stop: server.ts moves it on SIGTERM. */
  drain?: () => DrainState;
  /** How long a driver whose app lost its connection stays online without a report (tests shorten it); RECONNECT_GRACE_MS otherwise. */
  driverReconnectGraceMs?: number;
  /** Real time between supply samples (tests shorten it and move the clock); 30 s otherwise. */
  supplySampleIntervalMs?: number;
  /** How often documents' expiries are swept (tests shorten it); DOCUMENT_SWEEP_MS otherwise. */
  documentSweepMs?: number;
}
