import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import fp from 'fastify-plugin';
import { Type } from 'typebox';

export type ReadinessCheck = () => Promise<unknown>;

const CHECK_TIMEOUT_MS = 2_000;
const Status = Type.Object({ status: Type.String(), checks: Type.Optional(Type.Record(Type.String(), Type.String())) });

/**
 * Where a process is in its stop (server.ts): `serving`; `draining` after SIGTERM, still serving
 * while balancers notice; `closing`, no longer accepting connections, each answer closing its own.
 */
export type DrainState = 'serving' | 'draining' | 'closing';

export interface HealthOptions {
  checks: Record<string, ReadinessCheck>;
  drain?: () => DrainState;
}

/**
 * `/health`: the process serves and is not stopping (what load balancers check: a shared
 * dependency's outage must not take every instance out of rotation). `/ready`: that, and every
 * dependency answered within two seconds (what orchestrators check). Once the process stops
 * accepting connections, every answer closes its connection: a proxy's pooled connections to it
 * are used up by requests that are served, rather than cut under one.
 */
export const healthRoutes = fp(async (fastify: FastifyInstance, { checks, drain = () => 'serving' }: HealthOptions) => {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const config = { public: true };

  // A callback, not an async hook: it runs for every request, and an async one costs a promise and a turn of the microtask queue each time.
  app.addHook('onRequest', (_request, reply, done) => {
    if (drain() === 'closing') reply.header('connection', 'close');
    done();
  });

  app.get('/health', {
    config,
    schema: { tags: ['health'], summary: 'Liveness: the process serves and is not stopping (for load balancers)', response: { 200: Status, 503: Status } },
  }, async (_request, reply) => (drain() === 'serving' ? { status: 'ok' } : reply.code(503).send({ status: 'draining' })));

  app.get('/ready', {
    config,
    schema: {
      tags: ['health'],
      summary: 'Readiness: database (and Redis when configured) reachable and not shutting down (for orchestrators, not load balancers)',
      response: { 200: Status, 503: Status },
    },
  }, async (request, reply) => {
    if (drain() !== 'serving') return reply.code(503).send({ status: 'draining' });
    const results = await runChecks(checks);
    for (const { name, error } of results) if (error !== undefined) request.log.warn({ err: error, dependency: name }, 'readiness check failed');
    const ready = results.every(({ ok }) => ok);
    return reply.code(ready ? 200 : 503).send({ status: ready ? 'ready' : 'unavailable', checks: Object.fromEntries(results.map(({ name, ok }) => [name, ok ? 'ok' : 'unavailable'])) });
  });
});

export interface CheckResult {
  name: string;
  ok: boolean;
  /** How long the dependency took to answer (or to fail, or to time out). */
  seconds: number;
  error?: unknown;
}

/** Every check at once, each given two seconds: what /ready answers and the metrics report. */
export function runChecks(checks: Record<string, ReadinessCheck>): Promise<CheckResult[]> {
  return Promise.all(
    Object.entries(checks).map(async ([name, check]) => {
      const started = performance.now();
      const seconds = () => (performance.now() - started) / 1000;
      try {
        await withTimeout(check(), CHECK_TIMEOUT_MS);
        return { name, ok: true, seconds: seconds() };
      } catch (error) {
        return { name, ok: false, seconds: seconds(), error };
      }
    }),
  );
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
