import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { notFound, unauthorized } from './errors.ts';

// The one place that knows Prometheus. Modules hand it plain numbers (a total they keep, a value
// read when Prometheus scrapes, an event to count); this file turns them into metric families.

export type Labels = Record<string, string>;

/** One value of a family, with its labels. */
export interface Sample {
  labels?: Labels;
  value: number;
}

/** Something counted as it happens. */
export interface Count {
  inc(labels?: Labels): void;
}

/** Durations recorded as they happen. */
export interface Timing {
  observe(labels: Labels, seconds: number): void;
}

const PREFIX = 'ride_hailing_';
// From a cached read (a millisecond) to a slow report (ten seconds).
const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

// CPU, memory, garbage collection and event-loop lag belong to the process, not to one app (tests
// build many apps in one process): one registry for the process, merged into every app's answer.
let processRegistry: Registry | undefined;
function processMetrics(): Registry {
  if (!processRegistry) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry });
  }
  return processRegistry;
}

/** The metrics of one app: its request histogram and the families the service registers. */
export class Metrics {
  readonly #registry = new Registry();
  readonly #onError: (error: unknown, family: string) => void;
  readonly #requests: Histogram<'method' | 'route' | 'status_code'>;

  /** `onError` hears of a family whose values could not be read for a scrape (it is left out of that answer). */
  constructor(onError: (error: unknown, family: string) => void) {
    this.#onError = onError;
    this.#requests = new Histogram({
      name: `${PREFIX}http_request_duration_seconds`,
      help: 'Requests answered, by method, route pattern and status, and how long they took',
      labelNames: ['method', 'route', 'status_code'],
      buckets: LATENCY_BUCKETS,
      registers: [this.#registry],
    });
  }

  /** A request answered; `route` is the route's pattern (`/rides/status/:rideId`), never the URL. */
  request(method: string, route: string, statusCode: number, seconds: number): void {
    this.#requests.observe({ method, route, status_code: String(statusCode) }, seconds);
  }

  /** A counter the service increments as things happen. */
  counter(name: string, help: string, labelNames: readonly string[] = []): Count {
    const counter = new Counter({ name: PREFIX + name, help, labelNames, registers: [this.#registry] });
    return { inc: (labels) => (labels ? counter.inc(labels) : counter.inc()) };
  }

  /** A histogram of durations in seconds, recorded as things happen; `buckets` for durations that are not request latencies. */
  histogram(name: string, help: string, labelNames: readonly string[] = [], buckets: readonly number[] = LATENCY_BUCKETS): Timing {
    const histogram = new Histogram({ name: PREFIX + name, help, labelNames, buckets: [...buckets], registers: [this.#registry] });
    return { observe: (labels, seconds) => histogram.observe(labels, seconds) };
  }

  /** A counter whose owner keeps the total; read when Prometheus scrapes. */
  total(name: string, help: string, read: () => number): void {
    new Counter({
      name: PREFIX + name,
      help,
      registers: [this.#registry],
      collect() {
        this.reset();
        this.inc(read());
      },
    });
  }

  /** A gauge read when Prometheus scrapes; a read that fails leaves the family without values for that scrape. */
  gauge(name: string, help: string, labelNames: readonly string[], read: () => Sample[] | Promise<Sample[]>): void {
    const onError = this.#onError;
    new Gauge({
      name: PREFIX + name,
      help,
      labelNames,
      registers: [this.#registry],
      async collect() {
        this.reset();
        try {
          for (const { labels, value } of await read()) this.set(labels ?? {}, value);
        } catch (error) {
          onError(error, PREFIX + name);
        }
      },
    });
  }

  /** The Prometheus text exposition of the process and this app. */
  async exposition(): Promise<{ contentType: string; text: string }> {
    const registry = Registry.merge([processMetrics(), this.#registry]);
    return { contentType: registry.contentType, text: await registry.metrics() };
  }
}

/**
 * Times every request (route pattern, never the URL) and serves `GET /metrics`. With a token, only
 * a caller sending it as a bearer token gets an answer (401 otherwise); without one, only a caller
 * on this machine, and anyone else gets the 404 of an unknown route, so the endpoint is not advertised.
 */
export const metricsEndpoint = fp<{ metrics: Metrics; token: string | undefined }>(async (app: FastifyInstance, { metrics, token }) => {
  app.addHook('onResponse', (request, reply, done) => {
    metrics.request(request.method, request.routeOptions.url ?? 'unmatched', reply.statusCode, reply.elapsedTime / 1000);
    done();
  });

  app.get('/metrics', { config: { public: true }, schema: { hide: true } }, async (request, reply) => {
    admit(request, token);
    const { contentType, text } = await metrics.exposition();
    return reply.type(contentType).send(text);
  });
});

function admit(request: FastifyRequest, token: string | undefined): void {
  if (token === undefined) {
    if (!fromThisMachine(request)) throw notFound(`Route ${request.method} ${request.url.split('?')[0]} not found`);
    return;
  }
  const given = /^Bearer\s+(\S+)$/i.exec(request.headers.authorization ?? '')?.[1];
  if (given === undefined || !sameSecret(given, token)) throw unauthorized('GET /metrics needs the METRICS_TOKEN as a bearer token', 'INVALID_METRICS_TOKEN');
}

/**
 * A loopback connection that no proxy forwarded: a proxy on this machine connects from loopback
 * too, on behalf of callers who are not.
 */
function fromThisMachine(request: FastifyRequest): boolean {
  if (request.headers['x-forwarded-for'] !== undefined || request.headers.forwarded !== undefined) return false;
  const address = request.socket.remoteAddress ?? '';
  return address === '::1' || address.startsWith('127.') || address.startsWith('::ffff:127.');
}

// Digests first: equal lengths for the constant-time comparison, whatever the caller sent.
const digest = (text: string) => createHash('sha256').update(text).digest();
const sameSecret = (given: string, expected: string) => timingSafeEqual(digest(given), digest(expected));
