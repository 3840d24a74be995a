import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { Ajv } from 'ajv';
import { Type, type Static } from 'typebox';

// Every environment variable the service reads. Values arrive as strings; Ajv coerces them.
const EnvSchema = Type.Object({
  PORT: Type.Integer({ minimum: 0, maximum: 65535, default: 8080 }),
  HOST: Type.String({ minLength: 1, default: '0.0.0.0' }),
  DATABASE_URL: Type.String({ pattern: '^(sqlite:|postgres://|postgresql://)', default: 'sqlite:./data/ride-hailing.db' }),
  REDIS_URL: Type.Optional(Type.String({ pattern: '^rediss?://' })),
  JWT_SECRET: Type.Optional(Type.String({ minLength: 32 })),
  ACCESS_TOKEN_TTL_SECONDS: Type.Integer({ minimum: 60, maximum: 86_400, default: 3600 }),
  REFRESH_TOKEN_TTL_SECONDS: Type.Integer({ minimum: 300, maximum: 31_536_000, default: 2_592_000 }),
  SMTP_URL: Type.Optional(Type.String({ pattern: '^smtps?://' })),
  MAIL_FROM: Type.String({ minLength: 3, default: 'Ride Hailing <no-reply@ride-hailing.local>' }),
  RAZORPAY_KEY_ID: Type.Optional(Type.String({ minLength: 1 })),
  RAZORPAY_KEY_SECRET: Type.Optional(Type.String({ minLength: 1 })),
  RAZORPAY_API_URL: Type.String({ pattern: '^https?://', default: 'https://api.razorpay.com' }),
  RAZORPAY_WEBHOOK_SECRET: Type.Optional(Type.String({ minLength: 1 })),
  ADMIN_EMAILS: Type.String({ default: '' }),
  SERVICE_TIMEZONE: Type.String({ minLength: 1, default: 'Asia/Kolkata' }),
  RATE_LIMIT_PER_MINUTE: Type.Integer({ minimum: 0, default: 600 }),
  AUTH_RATE_LIMIT_PER_MINUTE: Type.Integer({ minimum: 0, default: 30 }),
  OTP_RESEND_COOLDOWN_SECONDS: Type.Integer({ minimum: 0, maximum: 3600, default: 30 }),
  TRUST_PROXY: Type.Boolean({ default: false }),
  LOG_LEVEL: Type.Enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], { default: 'info' }),
});
type Env = Static<typeof EnvSchema>;

export type DatabaseConfig = { kind: 'sqlite'; file: string } | { kind: 'postgres'; url: string };

export interface Config {
  port: number;
  host: string;
  database: DatabaseConfig;
  redisUrl: string | undefined;
  /** Prefix of every Redis key and channel; instances of one deployment share it. */
  redisKeyPrefix: string;
  jwtSecret: string;
  accessTokenTtlSeconds: number;
  refreshTokenTtlSeconds: number;
  smtpUrl: string | undefined;
  mailFrom: string;
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
  trustProxy: boolean;
  logLevel: string;
}

export class ConfigError extends Error {}

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
    const problems = (validateEnv.errors ?? []).map((e) => `${e.instancePath.slice(1) || 'environment'} ${e.message ?? 'is invalid'}`);
    throw new ConfigError(`Invalid configuration: ${problems.join('; ')}`);
  }
  if (!isValidTimezone(env.SERVICE_TIMEZONE)) {
    throw new ConfigError(`Invalid configuration: SERVICE_TIMEZONE "${env.SERVICE_TIMEZONE}" is not an IANA time zone`);
  }
  const database = parseDatabaseUrl(env.DATABASE_URL);
  return {
    port: env.PORT,
    host: env.HOST,
    database,
    redisUrl: env.REDIS_URL,
    redisKeyPrefix: 'ride-hailing:',
    jwtSecret: env.JWT_SECRET ?? embeddedJwtSecret(database),
    accessTokenTtlSeconds: env.ACCESS_TOKEN_TTL_SECONDS,
    refreshTokenTtlSeconds: env.REFRESH_TOKEN_TTL_SECONDS,
    smtpUrl: env.SMTP_URL,
    mailFrom: env.MAIL_FROM,
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
    trustProxy: env.TRUST_PROXY,
    logLevel: env.LOG_LEVEL,
  };
}

function parseDatabaseUrl(url: string): DatabaseConfig {
  if (url.startsWith('sqlite:')) {
    const file = url.slice('sqlite:'.length).replace(/^\/\/(?=\/)/, '');
    if (!file) throw new ConfigError('Invalid configuration: DATABASE_URL sqlite: needs a file path');
    return { kind: 'sqlite', file: file === ':memory:' ? file : resolve(file) };
  }
  return { kind: 'postgres', url };
}

function isValidTimezone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

// The embedded mode keeps a generated secret beside the database so tokens survive restarts.
// Several instances sharing PostgreSQL must share one secret, so there it has to be given.
function embeddedJwtSecret(database: DatabaseConfig): string {
  if (database.kind === 'postgres') {
    throw new ConfigError('Invalid configuration: JWT_SECRET (at least 32 characters) is required with PostgreSQL');
  }
  if (database.file === ':memory:') return randomBytes(48).toString('base64url');
  const file = resolve(dirname(database.file), 'jwt-secret');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dirname(file), { recursive: true });
  try {
    writeFileSync(file, randomBytes(48).toString('base64url'), { mode: 0o600, flag: 'wx' });
    chmodSync(file, 0o600);
  } catch (error) {
    // Another process created it first; use theirs.
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  return readFileSync(file, 'utf8').trim();
}
