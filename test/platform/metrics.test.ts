import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { call, createTestApp, type TestApp } from '../helpers/app.ts';
import { driverAt, kmNorth, offerOf } from '../helpers/dispatch.ts';
import { signUp } from '../helpers/factories.ts';
import { assertError, bookRide } from '../helpers/rides.ts';

// A strict reader of the Prometheus text format (0.0.4): every line must be a HELP, a TYPE, a
// comment or a sample; samples belong to a family typed before them, appear together, once per
// label set; histograms have cumulative buckets ending in +Inf that equals their count.

interface Family {
  type: string;
  help: string;
  samples: Array<{ name: string; labels: Record<string, string>; value: number }>;
}

const NAME = '[a-zA-Z_:][a-zA-Z0-9_:]*';
const SAMPLE = new RegExp(`^(${NAME})(?:\\{(.*)\\})? (\\S+)(?: (-?\\d+))?$`);
const LABEL = /^([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\\n]|\\["\\n])*)"(,|$)/;
const SUFFIXES: Record<string, string[]> = { histogram: ['_bucket', '_sum', '_count'], summary: ['', '_sum', '_count'], counter: [''], gauge: [''], untyped: [''] };

// As Prometheus reads them (Go's ParseFloat): special values in any case.
function parseValue(text: string, line: string): number {
  if (/^nan$/i.test(text)) return Number.NaN;
  if (/^\+?inf(inity)?$/i.test(text)) return Number.POSITIVE_INFINITY;
  if (/^-inf(inity)?$/i.test(text)) return Number.NEGATIVE_INFINITY;
  assert.match(text, /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/, `a number: ${line}`);
  return Number(text);
}

function parseLabels(text: string, line: string): Record<string, string> {
  const labels: Record<string, string> = {};
  let rest = text;
  while (rest.length > 0) {
    const match = LABEL.exec(rest);
    assert.ok(match, `labels: ${line}`);
    assert.ok(!(match[1] in labels), `a label given twice: ${line}`);
    labels[match[1]] = match[2].replace(/\\(["\\n])/g, (_, c: string) => (c === 'n' ? '\n' : c));
    rest = rest.slice(match[0].length);
  }
  return labels;
}

export function parsePrometheus(text: string): Map<string, Family> {
  const families = new Map<string, Family>();
  const seen = new Set<string>();
  let current: string | undefined;
  for (const line of text.split('\n')) {
    if (line === '') continue;
    const meta = /^# (HELP|TYPE) (\S+) ?(.*)$/.exec(line);
    if (meta) {
      const [, kind, name, rest] = meta;
      assert.match(name, new RegExp(`^${NAME}$`), line);
      const family = families.get(name) ?? { type: 'untyped', help: '', samples: [] };
      if (kind === 'TYPE') {
        assert.ok(Object.hasOwn(SUFFIXES, rest), `a known type: ${line}`);
        assert.equal(family.samples.length, 0, `TYPE before samples: ${line}`);
        family.type = rest;
      } else family.help = rest;
      families.set(name, family);
      current = name;
      continue;
    }
    if (line.startsWith('#')) continue;
    const match = SAMPLE.exec(line);
    assert.ok(match, `a sample: ${JSON.stringify(line)}`);
    const [, name, labelText, valueText] = match;
    const labels = parseLabels(labelText ?? '', line);
    const familyName = current;
    assert.ok(familyName && (SUFFIXES[families.get(familyName)!.type] ?? ['']).some((suffix) => name === familyName + suffix), `${name} belongs to the family declared before it (${familyName})`);
    const key = `${name}${JSON.stringify(Object.entries(labels).sort())}`;
    assert.ok(!seen.has(key), `one sample per label set: ${line}`);
    seen.add(key);
    families.get(familyName)!.samples.push({ name, labels, value: parseValue(valueText, line) });
  }
  for (const [name, family] of families) if (family.type === 'histogram') checkHistogram(name, family);
  return families;
}

function checkHistogram(name: string, family: Family): void {
  const series = new Map<string, Array<{ le: number; value: number }>>();
  const counts = new Map<string, number>();
  for (const sample of family.samples) {
    const { le, ...rest } = sample.labels;
    const key = JSON.stringify(Object.entries(rest).sort());
    if (sample.name === `${name}_bucket`) series.set(key, [...(series.get(key) ?? []), { le: parseValue(le, name), value: sample.value }]);
    if (sample.name === `${name}_count`) counts.set(key, sample.value);
  }
  for (const [key, buckets] of series) {
    for (let i = 1; i < buckets.length; i++) {
      assert.ok(buckets[i].le > buckets[i - 1].le && buckets[i].value >= buckets[i - 1].value, `${name} buckets are cumulative`);
    }
    assert.equal(buckets.at(-1)!.le, Number.POSITIVE_INFINITY, `${name} ends with +Inf`);
    assert.equal(buckets.at(-1)!.value, counts.get(key), `${name}: +Inf bucket equals the count`);
  }
}

const scrape = (app: FastifyInstance, options: { remoteAddress?: string; headers?: Record<string, string> } = {}) =>
  app.inject({ method: 'GET', url: '/metrics', ...options });

describe('GET /metrics', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp({ dispatch: { mode: 'nearest', batchMs: 50, offerTtlMs: 15_000, maxMs: 120_000 } });
  });
  after(() => t.close());

  test('answers this machine in the Prometheus text format, with every family the service reports', async () => {
    const driver = await driverAt(t, kmNorth(0.3));
    const rider = await signUp(t);
    const ride = await bookRide(t, rider);
    await offerOf(t, driver, ride.id);
    await call(t.app, 'GET', `/rides/status/${ride.id}`);
    await call(t.app, 'GET', '/no/such/route/424242');

    const reply = await scrape(t.app);
    assert.equal(reply.statusCode, 200);
    assert.match(String(reply.headers['content-type']), /^text\/plain; version=0\.0\.4/);
    const families = parsePrometheus(reply.body);
    const family = (name: string, type: string) => {
      const found = families.get(name);
      assert.ok(found, `${name} is reported`);
      assert.equal(found.type, type, `${name} is a ${type}`);
      assert.ok(found.help.length > 0, `${name} says what it is`);
      return found;
    };
    const value = (name: string, type: string, labels: Record<string, string> = {}) =>
      family(name, type).samples.find((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v))?.value;

    const requests = family('ride_hailing_http_request_duration_seconds', 'histogram');
    const routes = new Set(requests.samples.map((s) => s.labels.route));
    assert.ok(routes.has('/rides/status/:rideId'), 'by route pattern');
    assert.ok(routes.has('unmatched'), 'an unknown URL under one label');
    assert.ok(![...routes].some((route) => route.includes(String(ride.id)) || route.includes('424242')), 'never the raw URL');
    assert.ok(requests.samples.some((s) => s.name.endsWith('_count') && s.labels.route === '/rides/book' && s.labels.method === 'POST' && s.labels.status_code === '200' && s.value === 1));

    assert.equal(value('ride_hailing_rides_today', 'gauge', { status: 'REQUESTED' }), 1);
    assert.deepEqual(family('ride_hailing_rides_today', 'gauge').samples.map((s) => s.labels.status).sort(), ['ACCEPTED', 'CANCELLED', 'COMPLETED', 'PICKED', 'REQUESTED']);
    assert.equal(value('ride_hailing_open_requests', 'gauge'), 1);
    assert.deepEqual(family('ride_hailing_drivers', 'gauge').samples.map((s) => s.labels.state).sort(), ['available', 'busy', 'online']);
    assert.ok(value('ride_hailing_dispatch_rounds_total', 'counter')! >= 1);
    assert.equal(value('ride_hailing_dispatch_offers_total', 'counter'), 1);
    assert.ok(value('ride_hailing_dispatch_round_seconds_total', 'counter')! > 0, 'rounds take time');
    assert.equal(value('ride_hailing_realtime_connections', 'gauge'), 0);
    for (const name of ['ride_hailing_realtime_messages_delivered_total', 'ride_hailing_realtime_delivery_lag_seconds_total', 'ride_hailing_realtime_messages_unsent_total']) {
      assert.equal(value(name, 'counter'), 0, `${name}: nobody is connected, nothing is lost`);
    }
    assert.equal(value('ride_hailing_dependency_up', 'gauge', { dependency: 'database' }), 1);
    assert.ok(value('ride_hailing_dependency_check_seconds', 'gauge', { dependency: 'database' })! >= 0);
    if (t.config.redisUrl) assert.equal(value('ride_hailing_dependency_up', 'gauge', { dependency: 'redis' }), 1);
    const pools = family('ride_hailing_database_pool_connections', 'gauge').samples;
    if (t.config.database.kind === 'postgres') {
      assert.deepEqual([...new Set(pools.map((s) => `${s.labels.pool}/${s.labels.state}`))].sort(), ['reader/idle', 'reader/open', 'reader/waiting', 'writer/idle', 'writer/open', 'writer/waiting']);
    } else assert.deepEqual(pools, [], 'SQLite has no pools');
    assert.ok(value('nodejs_eventloop_lag_seconds', 'gauge')! >= 0, 'event-loop lag');
  });

  test('anyone not on this machine gets the answer of an unknown route, and it is not in the API document', async () => {
    const remote = await scrape(t.app, { remoteAddress: '203.0.113.9' });
    const unknown = await t.app.inject({ method: 'GET', url: '/metricz' });
    assert.equal(remote.statusCode, 404);
    assert.deepEqual(JSON.parse(remote.body), { ...JSON.parse(unknown.body), message: 'Route GET /metrics not found' });
    // A proxy on this machine forwards callers who are not.
    assert.equal((await scrape(t.app, { headers: { 'x-forwarded-for': '203.0.113.9' } })).statusCode, 404);
    assert.equal((await scrape(t.app, { remoteAddress: '::1' })).statusCode, 200);
    const document = (await call(t.app, 'GET', '/openapi.json')).body;
    assert.ok(!('/metrics' in document.paths));
  });
});

describe('GET /metrics with METRICS_TOKEN', () => {
  const TOKEN = 'scrape-token-0123456789abcdef';
  let t: TestApp;
  before(async () => {
    t = await createTestApp({ metricsToken: TOKEN });
  });
  after(() => t.close());

  test('the token is required from everyone, this machine included, and is enough from anywhere', async () => {
    const attempts: Array<Record<string, string>> = [{}, { authorization: 'Bearer wrong-token-0123456789' }, { authorization: TOKEN }, { authorization: `Bearer ${TOKEN}x` }];
    for (const headers of attempts) {
      const reply = await scrape(t.app, { headers });
      assertError({ status: reply.statusCode, body: JSON.parse(reply.body), headers: reply.headers }, 401, 'INVALID_METRICS_TOKEN');
    }
    const remote = await scrape(t.app, { remoteAddress: '203.0.113.9', headers: { authorization: `Bearer ${TOKEN}`, 'x-forwarded-for': '198.51.100.7' } });
    assert.equal(remote.statusCode, 200);
    assert.ok(parsePrometheus(remote.body).has('ride_hailing_http_request_duration_seconds'));
  });
});

describe('the Prometheus reader of these tests', () => {
  test('refuses what Prometheus would', () => {
    assert.throws(() => parsePrometheus('up 1\n'), /belongs to the family/);
    assert.throws(() => parsePrometheus('# TYPE up gauge\nup{a="1} 1\n'), /labels/);
    assert.throws(() => parsePrometheus('# TYPE up gauge\nup one\n'), /a number/);
    assert.throws(() => parsePrometheus('# TYPE up gauge\nup 1\nup 2\n'), /one sample per label set/);
    assert.throws(() => parsePrometheus('# TYPE h histogram\nh_bucket{le="1"} 2\nh_bucket{le="+Inf"} 1\nh_count 1\n'), /cumulative/);
    assert.equal(parsePrometheus('# HELP up Is it up\n# TYPE up gauge\nup{job="a\\"b"} 1 1700000000000\n').get('up')!.samples[0].labels.job, 'a"b');
  });
});
