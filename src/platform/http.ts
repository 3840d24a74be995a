import { randomUUID } from 'node:crypto';
import { STATUS_CODES, type IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest, FastifyServerOptions } from 'fastify';
import type { TrustProxy } from '../config.ts';
import { isDatabaseUnavailable } from '../db/errors.ts';
import { AppError, errorBody } from './errors.ts';

export const BODY_LIMIT_BYTES = 1024 * 1024;
// Fastify's default: a path parameter longer than this is answered 414 before any route runs.
const MAX_PARAM_LENGTH = 100;

// Bodies are JSON with real types: "true" is not a boolean and "5" is not a rating. Properties a
// body's schema does not name are dropped, at every depth, before any handler sees the body: what
// a service stores (a pricing document) holds only what its schema names, never a field the server
// sets (a version), however a client pads it. No body schema has a second object branch in a union,
// where dropping by the first branch would strip what the second names.
// Query strings and path parameters are text, so there numbers and booleans are coerced.
const bodyAjv = addFormats.default(new Ajv({ coerceTypes: false, useDefaults: true, removeAdditional: 'all', allErrors: false, strict: false }));
const textAjv = addFormats.default(new Ajv({ coerceTypes: true, useDefaults: true, allErrors: false, strict: false }));

/**
 * Fastify's trustProxy from TRUST_PROXY. A hop count becomes a function: Fastify itself trusts no
 * hop for a bare number. With `n` hops the client address is the n-th entry from the right of
 * X-Forwarded-For (the socket being hop 0), so whatever a client writes further left is ignored.
 */
export function trustedProxies(setting: TrustProxy): false | string[] | ((address: string, hop: number) => boolean) {
  if (typeof setting !== 'number') return setting;
  if (setting === 0) return false;
  return (_address, hop) => hop < setting;
}

/**
 * Every request gets an id of ours, in the log and the X-Request-Id answer. A caller's own
 * X-Request-Id never stands in for it (an audit entry's request id must be one no client chose);
 * it is logged beside ours (clientRequestId) when short and plain.
 */
export function requestId(): string {
  return randomUUID();
}

/** The caller's X-Request-Id, when it is short and plain: a label of the client's, for correlating its logs with ours. */
export function clientRequestId(request: Pick<IncomingMessage, 'headers'>): string | null {
  const given = request.headers['x-request-id'];
  return typeof given === 'string' && /^[\w.-]{1,64}$/.test(given) ? given : null;
}

/** Validation, JSON parsing, error bodies and the 404 answer shared by every route. */
export function registerHttpConventions(app: FastifyInstance): void {
  app.setValidatorCompiler(({ schema, httpPart }) => refusingNul((httpPart === 'body' ? bodyAjv : textAjv).compile(schema)));

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
      return reply.code(503).header('retry-after', '1').send(errorBody(503, 'DATABASE_UNAVAILABLE', 'The database is unavailable; try again shortly'));
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
    case 'FST_ERR_BAD_URL':
      return { status: 400, code: 'MALFORMED_URL', message: 'The URL is not validly percent-encoded' };
    case 'FST_ERR_MAX_PARAM_LENGTH':
      return { status: 414, code: 'URI_TOO_LONG', message: `A path segment is longer than ${MAX_PARAM_LENGTH} characters` };
  }
  if (error instanceof SyntaxError) {
    return { status: 400, code: 'MALFORMED_JSON', message: 'Request body is not valid JSON' };
  }
  if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
    return { status: error.statusCode, code: statusCode(error.statusCode), message: error.message };
  }
  return undefined;
}

/** `URI_TOO_LONG` for 414: a machine code that says the same as the status, for framework 4xx without a code of ours. */
function statusCode(status: number): string {
  return (STATUS_CODES[status] ?? 'Client Error').toUpperCase().replace(/[^A-Z0-9]+/g, '_');
}

/**
 * Server options for what Fastify and Node answer before any route runs (an undecodable URL, an
 * over-long path parameter, a request the HTTP parser refuses): the same error body as everywhere
 * else, with a status and code that say what happened. Spread into `Fastify({...})`.
 */
export const FRAMEWORK_ERROR_OPTIONS = {
  frameworkErrors(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
    const mapped = mapFrameworkError(error);
    if (mapped) return void reply.code(mapped.status).send(errorBody(mapped.status, mapped.code, mapped.message));
    request.log.error({ err: error }, 'framework error');
    void reply.code(500).send(errorBody(500, 'INTERNAL_ERROR', 'Internal server error'));
  },
  clientErrorHandler(error: NodeJS.ErrnoException, socket: Socket) {
    // A reset connection has no one to answer.
    if (error.code === 'ECONNRESET' || socket.destroyed) return;
    const [status, code, message]: [number, string, string] =
      error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'REQUEST_TIMEOUT', 'The request was not received in time']
        : error.code === 'HPE_HEADER_OVERFLOW'
          ? [431, 'HEADERS_TOO_LARGE', 'The request line and headers are larger than the server accepts']
          : [400, 'MALFORMED_REQUEST', 'The request is not valid HTTP'];
    if (socket.writable) {
      const body = JSON.stringify(errorBody(status, code, message));
      socket.write(
        `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
          `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
      );
    }
    socket.destroy(error);
  },
} satisfies Pick<FastifyServerOptions, 'frameworkErrors' | 'clientErrorHandler'>;

// PostgreSQL cannot store U+0000 in text (the driver throws), and no field of this API has a use for it,
// so every schema refuses it, in bodies, query strings and path parameters alike. Done here, around
// every compiled schema, so no route has to remember it.
const NUL_ERROR = 'must not contain NUL characters';

function refusingNul(check: ValidateFunction): ValidateFunction {
  const validate = ((data: unknown, context?: Parameters<ValidateFunction>[1]) => {
    const at = hasNul(data) ? nulPath(data) : undefined;
    if (at !== undefined) {
      // A pointer deep inside a nested body could be longer than the body itself; the start says enough.
      const instancePath = at.length > 100 ? `${at.slice(0, 100)}…` : at;
      validate.errors = [{ instancePath, schemaPath: '#', keyword: 'noNul', params: {}, message: NUL_ERROR } satisfies ErrorObject];
      return false;
    }
    const valid = check(data, context);
    validate.errors = check.errors;
    return valid;
  }) as ValidateFunction;
  // Fastify passes the parent object only to validators that carry a schemaEnv, so that Ajv can
  // replace a coerced root value; keep that working through the wrapper.
  Object.assign(validate, { schema: check.schema, schemaEnv: check.schemaEnv });
  return validate;
}

/** Whether any string or key holds U+0000: the check every request pays, so it builds no paths. Iterative, like nulPath. */
function hasNul(root: unknown): boolean {
  if (typeof root === 'string') return root.includes('\0');
  if (typeof root !== 'object' || root === null) return false;
  const pending: unknown[] = [root];
  while (pending.length > 0) {
    const value = pending.pop();
    if (typeof value === 'string') {
      if (value.includes('\0')) return true;
    } else if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i++) pending.push(value[i]);
    } else if (typeof value === 'object' && value !== null) {
      for (const key in value) {
        if (key.includes('\0')) return true;
        pending.push((value as Record<string, unknown>)[key]);
      }
    }
  }
  return false;
}

/** JSON pointer of the first string or key holding U+0000; iterative, so a deeply nested body cannot overflow the stack. */
function nulPath(root: unknown): string | undefined {
  const pending: Array<[unknown, string]> = [[root, '']];
  while (pending.length > 0) {
    const [value, path] = pending.pop()!;
    if (typeof value === 'string') {
      if (value.includes('\0')) return path;
    } else if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i++) pending.push([value[i], `${path}/${i}`]);
    } else if (typeof value === 'object' && value !== null) {
      for (const key in value) {
        const at = `${path}/${key.replaceAll('~', '~0').replaceAll('/', '~1').replaceAll('\0', '\\u0000')}`;
        if (key.includes('\0')) return at;
        pending.push([(value as Record<string, unknown>)[key], at]);
      }
    }
  }
  return undefined;
}
