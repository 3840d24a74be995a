import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import fp from 'fastify-plugin';
import { Type } from 'typebox';

export type ReadinessCheck = () => Promise<unknown>;

const CHECK_TIMEOUT_MS = 2_000;
const Status = Type.Object({ status: Type.String(), checks: Type.Optional(Type.Record(Type.String(), Type.String())) });

export interface HealthOptions {
  checks: Record<string, ReadinessCheck>;
  /** Whether the process is draining (SIGTERM received): /ready fails and every answer closes its connection. */
  draining?: () => boolean;
}

/**
 * `/health`: the process answers (what load balancers check: a shared dependency's outage must not
 * take every instance out of rotation). `/ready`: every dependency answered within two seconds, and
 * the process is not draining (what orchestrators check). While draining, every response closes its
 * connection, so a proxy's pooled connections to this instance end one by one while requests are
 * still served, and none is left idle to be cut under a request when the server stops.
 */
export const healthRoutes = fp(async (fastify: FastifyInstance, { checks, draining = () => false }: HealthOptions) => {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const config = { public: true };

  app.addHook('onRequest', async (_request, reply) => {
    if (draining()) reply.header('connection', 'close');
  });

  app.get('/health', { config, schema: { tags: ['health'], summary: 'Liveness: the process serves requests (for load balancers)', response: { 200: Status } } }, async () => ({ status: 'ok' }));

  app.get('/ready', {
    config,
    schema: {
      tags: ['health'],
      summary: 'Readiness: database (and Redis when configured) reachable and not shutting down (for orchestrators, not load balancers)',
      response: { 200: Status, 503: Status },
    },
  }, async (request, reply) => {
    if (draining()) return reply.code(503).send({ status: 'draining' });
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
