import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { InjectOptions } from 'fastify';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { signUp, uniqueEmail } from '../helpers/factories.ts';
import { FakeRazorpay, KEY_ID, KEY_SECRET, WEBHOOK_SECRET } from '../helpers/fake-razorpay.ts';

// Malformed requests generated from the service's own /openapi.json, so every operation is covered,
// including ones added later: wrong types, huge and negative numbers, NUL and control characters,
// odd Unicode, missing and extra fields, over-long strings, odd path ids, bad JSON and content types,
// each without a token, with a garbage one, and with a rider's, driver's or admin's; and every
// well-formed body padded with properties its schema does not name (server-set fields among them)
// at every depth. No answer may be a 5xx, every error must come in the uniform error body, and
// every read still answers afterwards, whatever was stored. The seed fixes the whole run.
const SEED = 20_261_123;
// After one request per single mutation of every operation, this many with several mutations at once.
const COMBINED_REQUESTS = 1_000;
const IN_FLIGHT = 8;

type Schema = Record<string, any>;
type Auth = 'none' | 'garbage' | 'rider' | 'driver' | 'admin';
const AUTHS: Auth[] = ['none', 'garbage', 'rider', 'driver', 'admin'];

interface Operation {
  method: string;
  path: string;
  pathParams: Schema[];
  queryParams: Schema[];
  body: Schema | undefined;
  streams: boolean;
  secured: boolean;
}

interface Case {
  operation: Operation;
  auth: Auth;
  path: Record<string, string>;
  query: string;
  body: { json: unknown } | { raw: string; contentType?: string } | undefined;
}

/** mulberry32: small, fast and the same everywhere. */
function random(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
  return { next, pick: <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] };
}

const NASTY_VALUES: unknown[] = [
  null,
  true,
  false,
  0,
  -1,
  1.5,
  -1e308,
  1e308,
  2 ** 53 + 1,
  -(2 ** 63),
  5e-324,
  '',
  ' ',
  '0',
  '-1',
  'NaN',
  'Infinity',
  '1e309',
  'true',
  'null',
  '\u0000',
  'a\u0000b',
  '\u0001\u0002\u001f\u007f',
  '\t\r\n',
  '𝔘ñí©ødé ☂ नमस्ते',
  '\u202eevil\u202c',
  '\ud800',
  '\ufeffbom',
  'x'.repeat(301),
  'y'.repeat(20_000),
  '<script>alert(1)</script>',
  "' OR 1=1 --",
  '../../etc/passwd',
  '%00',
  '99999999999999999999999',
  '0x1F',
  [],
  [1, 2],
  ['\u0000'],
  {},
  { a: { b: { c: 1 } } },
];

// Raw path segments as they appear in a URL (so percent-encodings are sent as written).
const NASTY_PATH_SEGMENTS = [
  '0',
  '-1',
  '1.5',
  '1e3',
  '99999999999999999999',
  '9007199254740993',
  'abc',
  '%00',
  'a%00b',
  '%01',
  '%2F',
  '%2e%2e',
  '%F0%9F%98%80',
  '%FF',
  '%E0%A4%A',
  '%zz',
  'null',
  '%20',
  ' 1'.replace(' ', '%20'),
  "'",
  '%22',
  'x'.repeat(99),
  'x'.repeat(150),
  '1;select',
];

const RAW_BODIES: Array<{ raw: string; contentType?: string }> = [
  { raw: '{' },
  { raw: '{"a":' },
  { raw: '[' },
  { raw: 'nul' },
  { raw: '{"a":1}garbage' },
  { raw: '"\\u0000"' },
  { raw: `${'['.repeat(5_000)}${']'.repeat(5_000)}` },
  { raw: `{"n":1${'0'.repeat(400)}}` },
  { raw: '{"a":1,"a":2}' },
  { raw: '{"__proto__":{"isAdmin":true}}' },
  { raw: '{"constructor":{"prototype":{"isAdmin":true}}}' },
  { raw: '' },
  { raw: '\ufeff{}' },
  { raw: '{}', contentType: 'text/plain' },
  { raw: 'a=1&b=2', contentType: 'application/x-www-form-urlencoded' },
  { raw: '--x\r\n\r\n--x--', contentType: 'multipart/form-data; boundary=x' },
  { raw: '{}', contentType: 'application/json; charset=utf-16' },
  { raw: '{}', contentType: 'application/json\u0001' },
  { raw: '\u0000\u0001\u0002' },
];

// Names a client might add to a body to set what the server decides; sent where the schema does not name them.
const SERVER_FIELDS: Record<string, unknown> = {
  id: 1,
  version: 999,
  status: 'COMPLETED',
  fare: 1,
  role: 'ADMIN',
  userId: 1,
  riderId: 1,
  createdAt: '2000-01-01T00:00:00.000Z',
  createdBy: 1,
  approval: 'approved',
  paymentStatus: 'PAID',
  constructor: { prototype: { isAdmin: true } },
  padding: 'p'.repeat(10_000),
  nested: { deeper: [1, { x: '\u0001' }] },
};

/** The body with properties its schema does not name added to it and to every object inside it. */
function withUnknown(value: unknown, schema: Schema | undefined): unknown {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
  const properties: Record<string, Schema> = schema?.properties ?? (schema?.anyOf ?? schema?.oneOf ?? []).find((s: Schema) => s.properties)?.properties ?? {};
  const padded: Record<string, unknown> = {};
  for (const [name, field] of Object.entries(value)) padded[name] = withUnknown(field, properties[name]);
  for (const [name, field] of Object.entries(SERVER_FIELDS)) if (!(name in properties)) padded[name] = field;
  return padded;
}

const RAW_QUERIES = ['&&&', '=', 'a', '%zz=1', 'a=%zz', 'a[b]=1', 'a=1&a=2&a=3', `${'q'.repeat(5000)}=1`, '__proto__=1', 'limit=1&limit=2'];

function operationsOf(document: Schema): Operation[] {
  const operations: Operation[] = [];
  for (const [path, methods] of Object.entries<Schema>(document.paths)) {
    for (const [method, operation] of Object.entries<Schema>(methods)) {
      const parameters: Schema[] = operation.parameters ?? [];
      operations.push({
        method: method.toUpperCase(),
        path,
        pathParams: parameters.filter((p) => p.in === 'path'),
        queryParams: parameters.filter((p) => p.in === 'query'),
        body: operation.requestBody?.content?.['application/json']?.schema,
        streams: Object.values<Schema>(operation.responses ?? {}).some((r) => r.content?.['text/event-stream']),
        secured: (operation.security ?? []).length > 0,
      });
    }
  }
  return operations;
}

/** A value the schema accepts, as far as a simple reading of it can tell. */
function validValue(schema: Schema | undefined): unknown {
  if (!schema) return 'x';
  if (schema.const !== undefined) return schema.const;
  if (Array.isArray(schema.enum)) return schema.enum.find((v: unknown) => v !== null) ?? null;
  const union = schema.anyOf ?? schema.oneOf;
  if (Array.isArray(union)) return validValue(union.find((s: Schema) => s.type !== 'null') ?? union[0]);
  const type = Array.isArray(schema.type) ? schema.type.find((t: string) => t !== 'null') : schema.type;
  switch (type) {
    case 'integer':
    case 'number':
      return Math.max(schema.minimum ?? 1, schema.exclusiveMinimum !== undefined ? schema.exclusiveMinimum + 1 : 1, Math.min(schema.maximum ?? 1, 1));
    case 'boolean':
      return true;
    case 'array':
      return [validValue(schema.items)];
    case 'object':
      return Object.fromEntries(Object.entries<Schema>(schema.properties ?? {}).map(([name, property]) => [name, validValue(property)]));
    default: {
      if (schema.format === 'email') return uniqueEmail('fuzz');
      if (schema.format === 'date-time') return new Date().toISOString();
      if (typeof schema.pattern === 'string' && /\[0-9\]|\\d/.test(schema.pattern)) return '1'.repeat(Math.max(1, schema.minLength ?? 6));
      return 'f'.repeat(Math.max(schema.minLength ?? 1, 8));
    }
  }
}

// A lone surrogate has no UTF-8 form; send the bytes a careless encoder would (invalid UTF-8).
const encode = (value: unknown) => (String(value).isWellFormed() ? encodeURIComponent(String(value)) : '%ED%A0%80');

/** A value that passes a format or pattern check, with something slipped inside it. */
function twisted(valid: unknown): unknown[] {
  const text = String(valid);
  const middle = Math.max(1, Math.floor(text.length / 2));
  return [
    `${text.slice(0, middle)}\u0000${text.slice(middle)}`,
    `${text}\u0000`,
    `${text.slice(0, middle)}\u0007\u001b[31m${text.slice(middle)}`,
    `${text.slice(0, middle)}\u200b\u202e${text.slice(middle)}`,
    ` ${text} `,
    text.toUpperCase(),
    `${text}${'9'.repeat(40)}`,
  ];
}

function queryPart(name: string, value: unknown): string {
  const key = encode(name);
  if (Array.isArray(value)) return value.length === 0 ? `${key}=` : value.map((v) => `${key}=${encode(v)}`).join('&');
  if (value !== null && typeof value === 'object') return `${key}[a]=${encode(JSON.stringify(value))}`;
  return `${key}=${value === null ? '' : encode(value)}`;
}

function validQuery(operation: Operation): Record<string, unknown> {
  return Object.fromEntries(operation.queryParams.filter((p) => p.required).map((p) => [p.name, validValue(p.schema)]));
}

function without(values: Record<string, unknown>, name: string): Record<string, unknown> {
  return Object.fromEntries(Object.entries(values).filter(([key]) => key !== name));
}

function queryString(values: Record<string, unknown>): string {
  return Object.entries(values)
    .map(([name, value]) => queryPart(name, value))
    .join('&');
}

function casesFor(operation: Operation, rng: ReturnType<typeof random>): Case[] {
  const cases: Case[] = [];
  const auth = () => authFor(operation, rng);
  const path = Object.fromEntries(operation.pathParams.map((p) => [p.name, '1']));
  const query = validQuery(operation);
  const body = operation.body ? validValue(operation.body) : undefined;
  const base = (): Case => ({ operation, auth: auth(), path: { ...path }, query: queryString(query), body: body === undefined ? undefined : { json: body } });

  // The well-formed request under every kind of caller.
  for (const kind of AUTHS) cases.push({ ...base(), auth: kind });

  for (const parameter of operation.pathParams) {
    const slipped = twisted(validValue(parameter.schema)).map((value) => encode(value));
    for (const segment of [...NASTY_PATH_SEGMENTS, ...slipped]) cases.push({ ...base(), path: { ...path, [parameter.name]: segment } });
  }

  for (const parameter of operation.queryParams) {
    for (const value of [...NASTY_VALUES, ...twisted(validValue(parameter.schema))]) {
      cases.push({ ...base(), query: queryString({ ...query, [parameter.name]: value }) });
    }
    if (parameter.required) cases.push({ ...base(), query: queryString(without(query, parameter.name)) });
  }
  for (const raw of RAW_QUERIES) cases.push({ ...base(), query: [queryString(query), raw].filter(Boolean).join('&') });
  cases.push({ ...base(), query: queryString({ ...query, unknownParameter: rng.pick(NASTY_VALUES) }) });

  if (operation.body) {
    const properties = Object.keys(operation.body.properties ?? {});
    for (const name of properties) {
      const values = [...NASTY_VALUES, ...twisted((body as Record<string, unknown>)[name])];
      for (const value of values) cases.push({ ...base(), body: { json: { ...(body as object), [name]: value } } });
      cases.push({ ...base(), body: { json: without(body as Record<string, unknown>, name) } });
    }
    for (const value of NASTY_VALUES) cases.push({ ...base(), body: { json: value } });
    // The well-formed body padded with unknown properties at every depth, under every kind of caller.
    for (const kind of AUTHS) cases.push({ ...base(), auth: kind, body: { json: withUnknown(body, operation.body) } });
    for (const raw of RAW_BODIES) cases.push({ ...base(), body: raw });
  } else if (operation.method !== 'GET') {
    // A body where none is expected.
    cases.push({ ...base(), body: { json: { unexpected: true } } });
    cases.push({ ...base(), body: rng.pick(RAW_BODIES) });
  }
  return cases;
}

/** Several mutations at once, picked by the seed: where single mutations stop, combinations go on. */
function combinedCase(operations: Operation[], rng: ReturnType<typeof random>): Case {
  const operation = rng.pick(operations);
  const path = Object.fromEntries(operation.pathParams.map((p) => [p.name, rng.next() < 0.5 ? rng.pick(NASTY_PATH_SEGMENTS) : '1']));
  const query: Record<string, unknown> = validQuery(operation);
  for (const parameter of operation.queryParams) if (rng.next() < 0.5) query[parameter.name] = rng.pick(NASTY_VALUES);
  let body: Case['body'];
  if (operation.body) {
    const json = validValue(operation.body) as Record<string, unknown>;
    for (const name of Object.keys(operation.body.properties ?? {})) {
      const roll = rng.next();
      if (roll < 0.3) json[name] = rng.pick(NASTY_VALUES);
      else if (roll < 0.4) delete json[name];
    }
    body = rng.next() < 0.1 ? rng.pick(RAW_BODIES) : { json };
  }
  return { operation, auth: authFor(operation, rng), path, query: queryString(query), body };
}

// A protected operation refuses a request without a valid token before looking at it, so most of
// its malformed requests carry one; a few go without, or with a garbage one.
function authFor(operation: Operation, rng: ReturnType<typeof random>): Auth {
  if (operation.secured && rng.next() < 0.85) return rng.pick(['rider', 'driver', 'admin'] as const);
  return rng.pick(AUTHS);
}

describe('schema-driven fuzzing of every operation', () => {
  let t: TestApp;
  let provider: FakeRazorpay;
  let tokens: Record<Auth, string | undefined>;
  const adminEmail = uniqueEmail('fuzz-admin');

  before(async () => {
    provider = await new FakeRazorpay().start();
    t = await createTestApp({
      adminEmails: new Set([adminEmail]),
      razorpay: { keyId: KEY_ID, keySecret: KEY_SECRET, apiUrl: provider.url, webhookSecret: WEBHOOK_SECRET },
    });
    const [rider, driver, admin] = await Promise.all([signUp(t), signUp(t, { role: 'DRIVER' }), signUp(t, { role: 'ADMIN', email: adminEmail })]);
    tokens = { none: undefined, garbage: 'eyJhbGciOiJub25lIn0.e30.', rider: rider.token, driver: driver.token, admin: admin.token };
  });
  after(async () => {
    await t.close();
    await provider.close();
  });

  test('thousands of malformed requests: no 5xx, every error in the uniform body', async (context) => {
    const document = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    const operations = operationsOf(document);
    assert.ok(operations.length >= 30, `${operations.length} operations in the document`);

    const rng = random(SEED);
    const cases = operations.flatMap((operation) => casesFor(operation, rng));
    for (let i = 0; i < COMBINED_REQUESTS; i++) cases.push(combinedCase(operations, rng));

    const failures: string[] = [];
    const statuses = new Map<number, number>();
    let next = 0;
    const worker = async () => {
      while (next < cases.length) {
        const one = cases[next++];
        const { status, problem } = await send(one);
        statuses.set(status, (statuses.get(status) ?? 0) + 1);
        if (problem) failures.push(`${problem}: ${describeCase(one)}`);
      }
    };
    await Promise.all(Array.from({ length: IN_FLIGHT }, worker));

    const summary = [...statuses].sort(([a], [b]) => a - b).map(([status, count]) => `${status}×${count}`).join(' ');
    // What the requests stored must still read: every read answers without a 5xx afterwards.
    for (const operation of operations.filter((o) => o.method === 'GET' && !o.streams)) {
      const path = Object.fromEntries(operation.pathParams.map((p) => [p.name, '1']));
      for (const auth of AUTHS) {
        const read: Case = { operation, auth, path, query: queryString(validQuery(operation)), body: undefined };
        const { problem } = await send(read);
        if (problem) failures.push(`afterwards, ${problem}: ${describeCase(read)}`);
      }
    }
    context.diagnostic(`${cases.length} requests over ${operations.length} operations: ${summary}`);
    assert.deepEqual(failures.slice(0, 10), [], `${failures.length} of ${cases.length} requests failed (${summary})`);
    assert.ok(cases.length >= 3_000, `${cases.length} requests`);
    assert.ok((statuses.get(200) ?? 0) > 50, `some requests got through to the handlers (${summary})`);
  });

  async function send(one: Case): Promise<{ status: number; problem?: string }> {
    const url = one.operation.path.replaceAll(/\{(\w+)\}/g, (_, name: string) => one.path[name] ?? '1') + (one.query ? `?${one.query}` : '');
    const headers: Record<string, string> = {};
    const token = tokens[one.auth];
    if (token) headers.authorization = `Bearer ${token}`;
    let payload: string | undefined;
    if (one.body && 'json' in one.body) {
      payload = JSON.stringify(one.body.json) ?? 'null';
      headers['content-type'] = 'application/json';
    } else if (one.body) {
      payload = one.body.raw;
      headers['content-type'] = one.body.contentType ?? 'application/json';
    }
    const options: InjectOptions = { method: one.operation.method, url, headers, payload };
    if (one.operation.streams) {
      // An event stream never ends by itself: read the status, then hang up.
      const abort = new AbortController();
      const response = await t.app.inject({ ...options, payloadAsStream: true, signal: abort.signal });
      const status = response.statusCode;
      if (response.headers['content-type']?.toString().startsWith('text/event-stream')) {
        abort.abort();
        return { status };
      }
      const chunks: Buffer[] = [];
      for await (const chunk of response.stream()) chunks.push(chunk as Buffer);
      return judge(status, response.headers['content-type'], Buffer.concat(chunks).toString());
    }
    const response = await t.app.inject(options);
    return judge(response.statusCode, response.headers['content-type'], response.body);
  }

  function judge(status: number, contentType: unknown, text: string): { status: number; problem?: string } {
    if (status >= 500) return { status, problem: `${status} ${text.slice(0, 200)}` };
    if (status < 400) return { status };
    let body: any;
    try {
      body = JSON.parse(text);
    } catch {
      return { status, problem: `${status} not JSON (${String(contentType)}): ${text.slice(0, 100)}` };
    }
    if (body?.statusCode !== status || typeof body.code !== 'string' || typeof body.message !== 'string') {
      return { status, problem: `${status} not the uniform error body: ${text.slice(0, 200)}` };
    }
    return { status };
  }
});

function describeCase(one: Case): string {
  const body = one.body === undefined ? '' : 'json' in one.body ? JSON.stringify(one.body.json) : `raw(${one.body.contentType ?? 'json'}) ${JSON.stringify(one.body.raw)}`;
  const path = one.operation.path.replaceAll(/\{(\w+)\}/g, (_, name: string) => one.path[name] ?? '1');
  return `${one.operation.method} ${path}${one.query ? `?${one.query}` : ''} [${one.auth}] ${body.slice(0, 300)}`;
}
