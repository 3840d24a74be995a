import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import type { FastifyError, FastifyInstance } from 'fastify';
import { isDatabaseUnavailable } from '../db/errors.ts';
import { AppError, errorBody } from './errors.ts';

export const BODY_LIMIT_BYTES = 1024 * 1024;

// Bodies are JSON with real types: "true" is not a boolean and "5" is not a rating.
// Query strings and path parameters are text, so there numbers and booleans are coerced.
const bodyAjv = addFormats.default(new Ajv({ coerceTypes: false, useDefaults: true, allErrors: false, strict: false }));
const textAjv = addFormats.default(new Ajv({ coerceTypes: true, useDefaults: true, allErrors: false, strict: false }));

/** Accepts a caller's X-Request-Id when it is short and plain, otherwise makes one. */
export function requestId(request: IncomingMessage): string {
  const given = request.headers['x-request-id'];
  return typeof given === 'string' && /^[\w.-]{1,64}$/.test(given) ? given : randomUUID();
}

/** Validation, JSON parsing, error bodies and the 404 answer shared by every route. */
export function registerHttpConventions(app: FastifyInstance): void {
  app.setValidatorCompiler(({ schema, httpPart }) => (httpPart === 'body' ? bodyAjv : textAjv).compile(schema));

  // An empty body with a JSON content type means "no body" (cancel and mark-all-read take none).
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.addContentTypeParser('application/json', { parseAs: 'string', bodyLimit: BODY_LIMIT_BYTES }, (request, body, done) => {
    const text = body.toString();
    if (text.trim() === '') return done(null, undefined);
    void parseJson(request, text, done);
  });

  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    done();
  });

  app.setNotFoundHandler((request, reply) => {
    void reply.code(404).send(errorBody(404, 'NOT_FOUND', `Route ${request.method} ${request.url.split('?')[0]} not found`));
  });

  app.setErrorHandler((error: FastifyError | AppError, request, reply) => {
    if (error instanceof AppError) {
      if (error.retryAfterSeconds !== undefined) void reply.header('retry-after', String(error.retryAfterSeconds));
      if (error.statusCode >= 500) request.log.warn({ err: error.cause ?? error, code: error.code }, error.message);
      return reply.code(error.statusCode).send(errorBody(error.statusCode, error.code, error.message));
    }
    if ('validation' in error && error.validation) {
      return reply.code(400).send(errorBody(400, 'VALIDATION_FAILED', error.message));
    }
    const mapped = mapFrameworkError(error);
    if (mapped) return reply.code(mapped.status).send(errorBody(mapped.status, mapped.code, mapped.message));
    if (isDatabaseUnavailable(error)) {
      request.log.warn({ err: error }, 'database unavailable');
      return reply.code(503).send(errorBody(503, 'DATABASE_UNAVAILABLE', 'The database is unavailable; try again shortly'));
    }
    request.log.error({ err: error }, 'unhandled error');
    return reply.code(500).send(errorBody(500, 'INTERNAL_ERROR', 'Internal server error'));
  });
}

function mapFrameworkError(error: FastifyError): { status: number; code: string; message: string } | undefined {
  switch (error.code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return { status: 400, code: 'MALFORMED_JSON', message: 'Request body is not valid JSON' };
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return { status: 413, code: 'PAYLOAD_TOO_LARGE', message: `Request body is larger than ${BODY_LIMIT_BYTES} bytes` };
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return { status: 415, code: 'UNSUPPORTED_MEDIA_TYPE', message: 'Request bodies must be application/json' };
  }
  if (error instanceof SyntaxError) {
    return { status: 400, code: 'MALFORMED_JSON', message: 'Request body is not valid JSON' };
  }
  if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
    return { status: error.statusCode, code: 'BAD_REQUEST', message: error.message };
  }
  return undefined;
}
