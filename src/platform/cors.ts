import cors from '@fastify/cors';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

// What a browser app needs: every method the API routes use, the headers it sends, and the response
// headers it must be able to read (paging cursor, request id, how long to back off).
const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'DELETE'];
const ALLOWED_HEADERS = ['Authorization', 'Content-Type', 'X-Request-Id', 'Idempotency-Key'];
const EXPOSED_HEADERS = ['X-Next-Cursor', 'X-Request-Id', 'Retry-After', 'Idempotent-Replayed'];
// Browsers cache a preflight at most this long (Chromium caps it at 2 hours).
const PREFLIGHT_MAX_AGE_SECONDS = 7200;

/**
 * Cross-origin access for browser apps. `*` is safe here because the API takes bearer tokens, never
 * cookies (no credentials mode). A refused origin gets an answer without Access-Control-Allow-Origin,
 * which the browser turns into a refusal. Registered before rate limits and authentication, so a
 * preflight (which carries no token) is answered at once.
 */
export const crossOrigin = fp<{ origins: '*' | string[] }>(async (app: FastifyInstance, { origins }) => {
  await app.register(cors, {
    origin: origins,
    methods: METHODS,
    allowedHeaders: ALLOWED_HEADERS,
    exposedHeaders: EXPOSED_HEADERS,
    maxAge: PREFLIGHT_MAX_AGE_SECONDS,
    credentials: false,
    // Strict mode answers an OPTIONS request without Origin with a text/plain 400, outside the
    // uniform error body; such a request is simply told the allowed methods instead.
    strictPreflight: false,
  });
});
