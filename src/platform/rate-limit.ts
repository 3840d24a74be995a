import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Counters } from './counters.ts';
import { tooManyRequests } from './errors.ts';

const WINDOW_MS = 60_000;
const UNLIMITED_PATHS = new Set(['/health', '/ready']);

export interface RateLimitOptions {
  counters: Counters;
  perMinute: number;
  authPerMinute: number;
}

/**
 * Requests per client IP per minute: `/auth/*` has its own stricter budget, every other route
 * shares the general one. Health probes are never limited. A limit of 0 turns that budget off.
 */
export const rateLimit = fp<RateLimitOptions>(async (app: FastifyInstance, { counters, perMinute, authPerMinute }) => {
  if (perMinute === 0 && authPerMinute === 0) return;
  app.addHook('onRequest', async (request, reply) => {
    const path = request.url.split('?')[0];
    if (UNLIMITED_PATHS.has(path)) return;
    const auth = path.startsWith('/auth/');
    const limit = auth ? authPerMinute : perMinute;
    if (limit === 0) return;

    let hit;
    try {
      hit = await counters.increment(`rate:${auth ? 'auth' : 'all'}:${request.ip}`, WINDOW_MS);
    } catch (error) {
      // Shared counters unreachable: serve rather than refuse everyone; /ready reports the outage.
      request.log.warn({ err: error }, 'rate limit counters unavailable; request not counted');
      return;
    }
    void reply.header('x-ratelimit-limit', limit);
    void reply.header('x-ratelimit-remaining', Math.max(0, limit - hit.count));
    if (hit.count > limit) {
      throw tooManyRequests(`Too many requests; at most ${limit} per minute`, hit.resetInMs / 1000);
    }
  });
});
