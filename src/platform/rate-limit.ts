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
 * The budget follows the route the request matched, not the URL as written: `/%61uth/login`
 * reaches the login handler, so it must count against the auth budget too. Unmatched requests
 * (404s) count against the general budget.
 */
export const rateLimit = fp<RateLimitOptions>(async (app: FastifyInstance, { counters, perMinute, authPerMinute }) => {
  if (perMinute === 0 && authPerMinute === 0) return;
  app.addHook('onRequest', async (request, reply) => {
    const route = request.routeOptions.url;
    if (route !== undefined && UNLIMITED_PATHS.has(route)) return;
    const auth = route?.startsWith('/auth/') === true;
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
