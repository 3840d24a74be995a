import type { FastifyRequest, FastifyServerOptions } from 'fastify';
import type { LoggerOptions as PinoLoggerOptions } from 'pino';
import { clientRequestId } from './http.ts';

// Query parameters whose name looks like one of these carry secrets (a token a client put in a link,
// a signature, a code): their values never reach a log line. Matched anywhere in the decoded name,
// case-insensitively, so `access_token`, `X-Api-Key` and `otpCode` are caught too.
const SECRET_NAME = /token|otp|pass|secret|signature|sig$|key|auth|code|session|cookie|credential/i;
const REDACTED = '[redacted]';
// A log line is not the place for a megabyte of query string.
const MAX_QUERY_LOG_CHARS = 512;

/**
 * The query string as it may be logged: values of secret-looking names replaced, the rest kept as
 * sent (still percent-encoded), cut at 512 characters. Undefined when there is none.
 */
export function redactedQuery(url: string): string | undefined {
  const start = url.indexOf('?');
  if (start === -1 || start === url.length - 1) return undefined;
  const pairs = url.slice(start + 1).split('&').map((pair) => {
    const equals = pair.indexOf('=');
    const name = equals === -1 ? pair : pair.slice(0, equals);
    return equals !== -1 && SECRET_NAME.test(decodeName(name)) ? `${name}=${REDACTED}` : pair;
  });
  const query = pairs.join('&');
  return query.length > MAX_QUERY_LOG_CHARS ? `${query.slice(0, MAX_QUERY_LOG_CHARS)}…` : query;
}

function decodeName(name: string): string {
  try {
    return decodeURIComponent(name.replaceAll('+', ' '));
  } catch {
    // Undecodable: judge it as written.
    return name;
  }
}

/**
 * What a log line says about a request: its method, the route it matched (not the URL, whose path
 * parameters and query may hold secrets), the query with secrets redacted, and the client. A request
 * that matched no route has no route to show, so its path is logged instead.
 */
function serializeRequest(request: FastifyRequest) {
  let route: string | undefined;
  try {
    route = request.is404 ? undefined : request.routeOptions.url;
  } catch {
    // Requests Fastify refuses before routing (an undecodable URL) have no route context.
    route = undefined;
  }
  const url = request.url;
  const query = redactedQuery(url);
  const clientId = clientRequestId(request);
  return {
    method: request.method,
    ...(route ? { route } : { path: url.split('?', 1)[0].slice(0, MAX_QUERY_LOG_CHARS) }),
    ...(query ? { query } : {}),
    ...(clientId ? { clientRequestId: clientId } : {}),
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}

type LoggerOptions = FastifyServerOptions['logger'];

/** Logger options with the request serializer above; given a pino options object (or `true`), it adds it. */
export function withRequestSerializer(logger: LoggerOptions): LoggerOptions {
  if (logger === true) return { serializers: { req: serializeRequest } };
  if (typeof logger !== 'object' || logger === null) return logger;
  return { ...logger, serializers: { req: serializeRequest, ...logger.serializers } };
}

// Secrets that could reach a log line are masked: the authorization header of a logged request, and
// these keys of any object the code logs (no request body is ever logged). Explicit paths, because
// wildcard paths made every request's logger measurably slower.
const REDACT = [
  'req.headers.authorization',
  'req.headers.cookie',
  'password',
  'otp',
  'token',
  'accessToken',
  'refreshToken',
  'signature',
  'startOtp',
  'endOtp',
];

/** The service's own logger options: `level`, with the secrets above masked, written to `stream` when given (stdout otherwise). */
export function serviceLogger(level: string, stream?: { write(chunk: string): void }): PinoLoggerOptions & { stream?: { write(chunk: string): void } } {
  return { level, redact: { paths: REDACT, censor: REDACTED }, ...(stream ? { stream } : {}) };
}
