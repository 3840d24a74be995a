import { fileURLToPath } from 'node:url';
import { Ajv, type ErrorObject } from 'ajv';
import { Type, type Static } from 'typebox';
export { ConfigError, type DatabaseConfig, type TrustProxy } from './config-values.ts';
import { ConfigError, embeddedJwtSecret, isValidTimezone, receiptSigningSeed, parseCorsOrigins, parseDatabaseUrl, parseTrustProxy, type DatabaseConfig, type TrustProxy } from './config-values.ts';
import { PUSH_SERVICE_HOSTS, pushConfig, type PushConfig } from './platform/push/push-config.ts';
import { parseRouting, type RoutingConfig } from './platform/routing/routing-config.ts';
import { DISPATCH_MODES, type DispatchMode } from './platform/vocabulary.ts';

// Every environment variable the service reads. Values arrive as strings; Ajv coerces them.
const EnvSchema = Type.Object({
  PORT: Type.Integer({ minimum: 0, maximum: 65535, default: 8080 }),
  HOST: Type.String({ minLength: 1, default: '0.0.0.0' }),
  DATABASE_URL: Type.String({ pattern: '^(sqlite:|postgres://|postgresql://)', default: 'sqlite:./data/ride-hailing.db' }),
  REDIS_URL: Type.Optional(Type.String({ pattern: '^rediss?://' })),
  JWT_SECRET: Type.Optional(Type.String({ minLength: 32 })),
  // An Ed25519 private key's 32-byte seed in base64url, 43 characters (docs/payments.md#receipts says how to make one).
  RECEIPT_SIGNING_KEY: Type.Optional(Type.String({ pattern: '^[A-Za-z0-9_-]{43}$' })),
  ACCESS_TOKEN_TTL_SECONDS: Type.Integer({ minimum: 60, maximum: 86_400, default: 3600 }),
  REFRESH_TOKEN_TTL_SECONDS: Type.Integer({ minimum: 300, maximum: 31_536_000, default: 2_592_000 }),
  SMTP_URL: Type.Optional(Type.String({ pattern: '^smtps?://' })),
  MAIL_FROM: Type.String({ minLength: 3, default: 'Ride Hailing <no-reply@ride-hailing.local>' }),
  // The SMS provider's send endpoint (credentials, if any, in the URL); unset, codes go to the log.
  SMS_URL: Type.Optional(Type.String({ pattern: '^https?://' })),
  // Exotel-style connect-call API base (key and token in the URL), and the virtual number both parties see.
  TELEPHONY_URL: Type.Optional(Type.String({ pattern: '^https?://' })),
  TELEPHONY_CALLER_ID: Type.Optional(Type.String({ pattern: '^\\+?[0-9]{6,15}$' })),
  RAZORPAY_KEY_ID: Type.Optional(Type.String({ minLength: 1 })),
  RAZORPAY_KEY_SECRET: Type.Optional(Type.String({ minLength: 1 })),
  RAZORPAY_API_URL: Type.String({ pattern: '^https?://', default: 'https://api.razorpay.com' }),
  RAZORPAY_WEBHOOK_SECRET: Type.Optional(Type.String({ minLength: 1 })),
  // The provider's browser checkout script: the rider app loads it, its pages' CSP admits its origin
  // (so its host is letters, digits, dots and hyphens, or an IPv6 address: nothing that would end a directive).
  RAZORPAY_CHECKOUT_URL: Type.String({
    pattern: '^https?://([\\w.-]+|\\[[0-9A-Fa-f:.]+\\])(:\\d{1,5})?(/[^\\s"\'<>]*)?$',
    default: 'https://checkout.razorpay.com/v1/checkout.js',
  }),
  ADMIN_EMAILS: Type.String({ default: '' }),
  SERVICE_TIMEZONE: Type.String({ minLength: 1, default: 'Asia/Kolkata' }),
  RATE_LIMIT_PER_MINUTE: Type.Integer({ minimum: 0, default: 600 }),
  AUTH_RATE_LIMIT_PER_MINUTE: Type.Integer({ minimum: 0, default: 30 }),
  OTP_RESEND_COOLDOWN_SECONDS: Type.Integer({ minimum: 0, maximum: 3600, default: 30 }),
  REFRESH_REUSE_GRACE_SECONDS: Type.Integer({ minimum: 0, maximum: 300, default: 10 }),
  TRUST_PROXY: Type.Optional(Type.String()),
  CORS_ORIGINS: Type.String({ minLength: 1, default: '*' }),
  REDIS_KEY_PREFIX: Type.String({ pattern: '^[\\x21-\\x7e]{1,64}$', default: 'ride-hailing:' }),
  MAX_OPEN_RIDES_PER_RIDER: Type.Integer({ minimum: 1, maximum: 100, default: 3 }),
  MAX_RIDE_KM: Type.Number({ exclusiveMinimum: 0, maximum: 2000, default: 300 }),
  FARE_RECOMPUTE_TOLERANCE: Type.Number({ minimum: 0, maximum: 10, default: 0.2 }),
  DRIVER_POSITIONS_PER_SECOND: Type.Integer({ minimum: 0, maximum: 1000, default: 5 }),
  REPLAY_RETENTION_DAYS: Type.Integer({ minimum: 1, maximum: 366, default: 35 }),
  DISPATCH_MODE: Type.Enum(DISPATCH_MODES, { default: 'batched' }),
  DISPATCH_BATCH_MS: Type.Integer({ minimum: 50, maximum: 60_000, default: 2000 }),
  DISPATCH_OFFER_TTL_SECONDS: Type.Integer({ minimum: 1, maximum: 600, default: 15 }),
  DISPATCH_MAX_SECONDS: Type.Integer({ minimum: 1, maximum: 3600, default: 120 }),
  SCHEDULE_MIN_LEAD_MINUTES: Type.Integer({ minimum: 0, maximum: 1440, default: 30 }),
  SCHEDULE_MAX_DAYS: Type.Integer({ minimum: 1, maximum: 365, default: 30 }),
  SCHEDULE_DISPATCH_LEAD_MINUTES: Type.Integer({ minimum: 1, maximum: 240, default: 20 }),
  DRIVER_APPROVAL_REQUIRED: Type.Boolean({ default: false }),
  DRIVER_DOCUMENTS_REQUIRED: Type.Boolean({ default: false }),
  ROUTING: Type.String({ minLength: 1, default: 'straight' }),
  METRICS_TOKEN: Type.Optional(Type.String({ minLength: 16, pattern: '^[\\x21-\\x7e]+$' })),
  WEB_APPS: Type.Boolean({ default: true }),
  // A tile template as Leaflet reads it: {z}, {x} and {y} (optionally {s}, {r}); it reaches the apps' pages
  // and their CSP, so its host holds nothing that could end a directive (as RAZORPAY_CHECKOUT_URL's).
  MAP_TILE_URL: Type.String({
    pattern: '^https?://([\\w.{}-]+|\\[[0-9A-Fa-f:.]+\\])(:\\d{1,5})?/(?=\\S*\\{z\\})(?=\\S*\\{x\\})(?=\\S*\\{y\\})[^\\s"\'<>]*$',
    default: 'https://tile.openstreetmap.org/{z}/{x}/{y}.png',
  }),
  SHUTDOWN_DELAY_SECONDS: Type.Integer({ minimum: 0, maximum: 300, default: 5 }),
  LOG_LEVEL: Type.Enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], { default: 'info' }),
  SIMULATION_SPEED: Type.Number({ minimum: 1, maximum: 1000, default: 1 }),
  // Web Push (docs/push.md): the VAPID key as a P-256 private key's 32 bytes in base64url, the contact push services see, where subscriptions may point.
  VAPID_PRIVATE_KEY: Type.Optional(Type.String({ pattern: '^[A-Za-z0-9_-]{43}$' })),
  VAPID_SUBJECT: Type.Optional(Type.String({ pattern: '^(mailto:[^\\s@]+@[^\\s@]+|https://\\S+)$' })),
  PUSH_SERVICE_HOSTS: Type.String({ pattern: '^(\\*|[\\w.-]+(,[\\w.-]+)*)$', default: PUSH_SERVICE_HOSTS }),
  PUSH_ALLOW_LOCAL_HTTP: Type.Boolean({ default: false }),
});
type Env = Static<typeof EnvSchema>;

export interface ScheduleConfig {
  minLeadMs: number;
  maxAheadMs: number;
  dispatchLeadMs: number;
}

export interface Config {
  port: number;
  host: string;
  database: DatabaseConfig;
  redisUrl: string | undefined;
  /** Prefix of every Redis key and channel; instances of one deployment share it. */
  redisKeyPrefix: string;
  jwtSecret: string;
  /** The seed of the Ed25519 key receipts are signed with (base64url); never logged, never answered. */
  receiptSigningKey: string;
  accessTokenTtlSeconds: number;
  refreshTokenTtlSeconds: number;
  smtpUrl: string | undefined;
  mailFrom: string;
  /** SMS_URL: where text messages (phone verification codes) are sent; unset, they are written to the log. */
  smsUrl: string | undefined;
  /** TELEPHONY_URL and TELEPHONY_CALLER_ID: the provider that bridges a ride's rider and driver; unset, rides have no calls. */
  telephony: { url: string; callerId: string } | undefined;
  razorpay: {
    keyId: string | undefined;
    keySecret: string | undefined;
    apiUrl: string;
    webhookSecret: string | undefined;
  };
  adminEmails: ReadonlySet<string>;
  serviceTimezone: string;
  rateLimitPerMinute: number;
  authRateLimitPerMinute: number;
  otpResendCooldownSeconds: number;
  /** A just-rotated refresh token presented again within this time gets a pair of the same session (parallel refreshes). */
  refreshReuseGraceSeconds: number;
  /** Proxies in front of the service: none (false), a number of hops, or their addresses and CIDR ranges. */
  trustProxy: TrustProxy;
  /** Browser origins allowed to call the API; `*` allows any. */
  corsOrigins: '*' | string[];
  /** Rides a rider may hold in REQUESTED, ACCEPTED or PICKED at once. */
  maxOpenRidesPerRider: number;
  /** The longest ride that can be booked: its road distance from pickup to drop, in km. */
  maxRideKm: number;
  /** How far (a share) a trip's own distance-and-time part may exceed the upfront one before the fare is recomputed from it. */
  fareRecomputeTolerance: number;
  /** Positions one driver may report per second, over every connection and REST together (0: no limit). */
  driverPositionsPerSecond: number;
  /** Days supply samples are kept for what-if replays. */
  replayRetentionDays: number;
  /** `roundRides` is for tests only: how many open rides a round reads (ROUND_RIDES in dispatcher.ts otherwise). */
  dispatch: { mode: DispatchMode; batchMs: number; offerTtlMs: number; maxMs: number; roundRides?: number };
  /**
   * Rides booked ahead (SCHEDULE_*, in ms): how soon (minLeadMs) and how far ahead (maxAheadMs) a
   * ride may be booked for, and how long before its time it enters dispatch (dispatchLeadMs).
   */
  schedule: ScheduleConfig;
  /** DRIVER_APPROVAL_REQUIRED: drivers need an operator's approval before offers and accepts. */
  driverApprovalRequired: boolean;
  /** DRIVER_DOCUMENTS_REQUIRED: drivers need a valid, approved licence, registration, insurance and permit before offers and accepts. */
  driverDocumentsRequired: boolean;
  /** ROUTING: what measures trips (great circle, an imported road graph, or an OSRM server). */
  routing: RoutingConfig;
  /** METRICS_TOKEN: the bearer token /metrics requires; unset, /metrics answers loopback callers only. */
  metricsToken: string | undefined;
  /** The browser apps under /app/ (WEB_APPS): whether they are served, where their build is, the map tiles they show, the payment checkout they load. */
  webApps: { enabled: boolean; root: string; mapTileUrl: string; checkoutUrl: string; driverApprovalRequired: boolean };
  /** SHUTDOWN_DELAY_SECONDS: after SIGTERM, how long /ready fails while requests are still served, before the server stops accepting. */
  shutdownDelaySeconds: number;
  logLevel: string;
  /** SIMULATION_SPEED: a simulated city's speed over the wall clock (demo, --compare); the overview's last hour is in its time. */
  simulationSpeed: number;
  /** Web Push: the VAPID key pair (the private half never answered or logged), its subject, and where subscriptions may point. */
  push: PushConfig;
}

/** For programs that start from the environment: the config, or undefined after printing what is wrong. */
export function configOrExplain(source: NodeJS.ProcessEnv = process.env): Config | undefined {
  try {
    return loadConfig(source);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    console.error(error.message);
    return undefined;
  }
}

const ajv = new Ajv({ coerceTypes: true, useDefaults: true, allErrors: true });
const validateEnv = ajv.compile<Env>(EnvSchema);

/** Reads and validates the environment once; a bad value throws a ConfigError naming the variable. */
export function loadConfig(source: NodeJS.ProcessEnv = process.env): Config {
  const env: Record<string, unknown> = {};
  for (const key of Object.keys(EnvSchema.properties)) {
    const value = source[key];
    if (value !== undefined && value !== '') env[key] = value;
  }
  if (!validateEnv(env)) {
    throw new ConfigError(`Invalid configuration: ${(validateEnv.errors ?? []).map((error) => problemOf(error, env)).join('; ')}`);
  }
  if (!isValidTimezone(env.SERVICE_TIMEZONE)) {
    throw new ConfigError(`Invalid configuration: SERVICE_TIMEZONE "${env.SERVICE_TIMEZONE}" is not an IANA time zone`);
  }
  // The pattern lets through what no URL parser accepts (a port above 65535); the pages' CSP is built from it.
  if (!URL.canParse(env.MAP_TILE_URL.replace(/\{[^}]*\}/g, '0'))) {
    throw new ConfigError(`Invalid configuration: MAP_TILE_URL "${env.MAP_TILE_URL}" is not a valid http(s) tile template`);
  }
  if (!URL.canParse(env.RAZORPAY_CHECKOUT_URL)) {
    throw new ConfigError(`Invalid configuration: RAZORPAY_CHECKOUT_URL "${env.RAZORPAY_CHECKOUT_URL}" is not a valid http(s) URL`);
  }
  if (env.TELEPHONY_URL && !env.TELEPHONY_CALLER_ID) {
    throw new ConfigError('Invalid configuration: TELEPHONY_URL needs TELEPHONY_CALLER_ID, the virtual number calls come from');
  }
  const database = parseDatabaseUrl(env.DATABASE_URL);
  let routing: RoutingConfig;
  try {
    routing = parseRouting(env.ROUTING);
  } catch (error) {
    throw new ConfigError(`Invalid configuration: ${(error as Error).message}`);
  }
  const jwtSecret = env.JWT_SECRET ?? embeddedJwtSecret(database);
  return {
    port: env.PORT,
    host: env.HOST,
    database,
    redisUrl: env.REDIS_URL,
    redisKeyPrefix: env.REDIS_KEY_PREFIX,
    jwtSecret,
    receiptSigningKey: receiptSigningSeed(env.RECEIPT_SIGNING_KEY, database, jwtSecret),
    accessTokenTtlSeconds: env.ACCESS_TOKEN_TTL_SECONDS,
    refreshTokenTtlSeconds: env.REFRESH_TOKEN_TTL_SECONDS,
    smtpUrl: env.SMTP_URL,
    mailFrom: env.MAIL_FROM,
    smsUrl: env.SMS_URL,
    telephony: env.TELEPHONY_URL && env.TELEPHONY_CALLER_ID ? { url: env.TELEPHONY_URL, callerId: env.TELEPHONY_CALLER_ID } : undefined,
    razorpay: {
      keyId: env.RAZORPAY_KEY_ID,
      keySecret: env.RAZORPAY_KEY_SECRET,
      apiUrl: env.RAZORPAY_API_URL.replace(/\/+$/, ''),
      webhookSecret: env.RAZORPAY_WEBHOOK_SECRET,
    },
    adminEmails: new Set(env.ADMIN_EMAILS.split(',').map((e) => e.trim().toLowerCase()).filter(Boolean)),
    serviceTimezone: env.SERVICE_TIMEZONE,
    rateLimitPerMinute: env.RATE_LIMIT_PER_MINUTE,
    authRateLimitPerMinute: env.AUTH_RATE_LIMIT_PER_MINUTE,
    otpResendCooldownSeconds: env.OTP_RESEND_COOLDOWN_SECONDS,
    refreshReuseGraceSeconds: env.REFRESH_REUSE_GRACE_SECONDS,
    trustProxy: parseTrustProxy(env.TRUST_PROXY),
    corsOrigins: parseCorsOrigins(env.CORS_ORIGINS),
    maxOpenRidesPerRider: env.MAX_OPEN_RIDES_PER_RIDER,
    maxRideKm: env.MAX_RIDE_KM,
    fareRecomputeTolerance: env.FARE_RECOMPUTE_TOLERANCE,
    driverPositionsPerSecond: env.DRIVER_POSITIONS_PER_SECOND,
    replayRetentionDays: env.REPLAY_RETENTION_DAYS,
    dispatch: {
      mode: env.DISPATCH_MODE,
      batchMs: env.DISPATCH_BATCH_MS,
      offerTtlMs: env.DISPATCH_OFFER_TTL_SECONDS * 1000,
      maxMs: env.DISPATCH_MAX_SECONDS * 1000,
    },
    schedule: {
      minLeadMs: env.SCHEDULE_MIN_LEAD_MINUTES * 60_000,
      maxAheadMs: env.SCHEDULE_MAX_DAYS * 86_400_000,
      dispatchLeadMs: env.SCHEDULE_DISPATCH_LEAD_MINUTES * 60_000,
    },
    driverApprovalRequired: env.DRIVER_APPROVAL_REQUIRED,
    driverDocumentsRequired: env.DRIVER_DOCUMENTS_REQUIRED,
    routing,
    metricsToken: env.METRICS_TOKEN,
    webApps: { enabled: env.WEB_APPS, root: fileURLToPath(new URL('../web/dist', import.meta.url)), mapTileUrl: env.MAP_TILE_URL, checkoutUrl: env.RAZORPAY_CHECKOUT_URL, driverApprovalRequired: env.DRIVER_APPROVAL_REQUIRED },
    shutdownDelaySeconds: env.SHUTDOWN_DELAY_SECONDS,
    logLevel: env.LOG_LEVEL,
    simulationSpeed: env.SIMULATION_SPEED,
    push: pushConfig({ privateKey: env.VAPID_PRIVATE_KEY, subject: env.VAPID_SUBJECT, mailFrom: env.MAIL_FROM, serviceHosts: env.PUSH_SERVICE_HOSTS, allowLocalHttp: env.PUSH_ALLOW_LOCAL_HTTP }, database, jwtSecret),
  };
}

// Ajv's own words, except where they leave out what to write instead: an enumeration's values.
function problemOf(error: ErrorObject, env: Record<string, unknown>): string {
  const name = error.instancePath.slice(1) || 'environment';
  const allowed = (error.params as { allowedValues?: unknown[] }).allowedValues;
  if (error.keyword === 'enum' && allowed) return `${name} ${JSON.stringify(env[name])} is not one of ${allowed.join(', ')}`;
  return `${name} ${error.message ?? 'is invalid'}`;
}
