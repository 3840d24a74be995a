import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';

export type ReadinessCheck = () => Promise<unknown>;

const CHECK_TIMEOUT_MS = 2_000;
const Status = Type.Object({ status: Type.String(), checks: Type.Optional(Type.Record(Type.String(), Type.String())) });

/** `/health`: the process answers. `/ready`: every dependency answered within two seconds. */
export async function healthRoutes(fastify: FastifyInstance, { checks }: { checks: Record<string, ReadinessCheck> }) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const config = { public: true };

  app.get('/health', { config, schema: { tags: ['health'], summary: 'Liveness', response: { 200: Status } } }, async () => ({ status: 'ok' }));

  app.get('/ready', {
    config,
    schema: { tags: ['health'], summary: 'Readiness: database (and Redis when configured) reachable', response: { 200: Status, 503: Status } },
  }, async (request, reply) => {
    const results = await runChecks(checks);
    for (const { name, error } of results) if (error !== undefined) request.log.warn({ err: error, dependency: name }, 'readiness check failed');
    const ready = results.every(({ ok }) => ok);
    return reply.code(ready ? 200 : 503).send({ status: ready ? 'ready' : 'unavailable', checks: Object.fromEntries(results.map(({ name, ok }) => [name, ok ? 'ok' : 'unavailable'])) });
  });
}

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
