import { hkdfSync, randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { dirname, resolve } from 'node:path';

// The values a schema cannot check by itself: each parsed here, or refused with a message that names
// its variable and says what to write instead.

/** A configuration the service cannot start with; its message names the variable. */
export class ConfigError extends Error {}

export type TrustProxy = false | number | string[];

export type DatabaseConfig = { kind: 'sqlite'; file: string } | { kind: 'postgres'; url: string };

export function parseDatabaseUrl(url: string): DatabaseConfig {
  if (url.startsWith('sqlite:')) {
    const file = url.slice('sqlite:'.length).replace(/^\/\/(?=\/)/, '');
    if (!file) throw new ConfigError('Invalid configuration: DATABASE_URL sqlite: needs a file path');
    return { kind: 'sqlite', file: file === ':memory:' ? file : resolve(file) };
  }
  return { kind: 'postgres', url };
}

// A boolean used to be accepted here; `true` trusted every hop of X-Forwarded-For, so a client could
// write its own address in front and pick the IP that rate limits count.
export function parseTrustProxy(value: string | undefined): TrustProxy {
  const text = value?.trim() ?? '';
  if (text === '' || text === 'false' || text === '0') return false;
  if (text === 'true') {
    throw new ConfigError(
      'Invalid configuration: TRUST_PROXY=true is no longer accepted (it let a client choose its own IP); give the number of ' +
        'proxies in front of the service (TRUST_PROXY=1 behind one load balancer) or their addresses (TRUST_PROXY=10.0.0.0/8)',
    );
  }
  if (/^\d+$/.test(text)) {
    const hops = Number(text);
    if (hops > 16) throw new ConfigError(`Invalid configuration: TRUST_PROXY ${text} hops is more than 16`);
    return hops;
  }
  const proxies = text.split(',').map((entry) => entry.trim()).filter(Boolean);
  const bad = proxies.filter((entry) => !isProxyAddress(entry));
  if (bad.length > 0 || proxies.length === 0) {
    throw new ConfigError(
      `Invalid configuration: TRUST_PROXY "${bad.join(', ') || text}" is not a hop count nor a comma list of proxy addresses or CIDR ranges`,
    );
  }
  return proxies;
}

// What proxy-addr (behind Fastify's trustProxy) understands: an address, a CIDR range, or a named range.
function isProxyAddress(entry: string): boolean {
  if (['loopback', 'linklocal', 'uniquelocal'].includes(entry)) return true;
  const [address, prefix, ...rest] = entry.split('/');
  const version = isIP(address);
  if (version === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (version === 4 ? 32 : 128);
}

export function parseCorsOrigins(value: string): '*' | string[] {
  if (value.trim() === '*') return '*';
  const origins = value.split(',').map((entry) => entry.trim().replace(/\/+$/, '')).filter(Boolean);
  for (const origin of origins) {
    // An origin is scheme://host[:port], exactly as a browser sends it in the Origin header.
    let parsed: URL | undefined;
    try {
      parsed = new URL(origin);
    } catch {
      parsed = undefined;
    }
    if (!parsed || parsed.origin !== origin) {
      throw new ConfigError(`Invalid configuration: CORS_ORIGINS "${origin}" is not an origin such as https://app.example.com (or use *)`);
    }
  }
  if (origins.length === 0) throw new ConfigError('Invalid configuration: CORS_ORIGINS lists no origin (use * to allow any)');
  return origins;
}

export function isValidTimezone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

// The embedded mode keeps a generated secret beside the database so tokens survive restarts.
// Several instances sharing PostgreSQL must share one secret, so there it has to be given.
export function embeddedJwtSecret(database: DatabaseConfig): string {
  if (database.kind === 'postgres') {
    throw new ConfigError('Invalid configuration: JWT_SECRET (at least 32 characters) is required with PostgreSQL');
  }
  return keptBesideDatabase(database.file, 'jwt-secret', () => randomBytes(48).toString('base64url'));
}

/**
 * The seed (32 bytes, base64url) of the Ed25519 key that signs receipts, kept like the JWT secret:
 * given (RECEIPT_SIGNING_KEY), or in embedded mode generated once into `data/receipt-key`. With
 * PostgreSQL and none given, every instance derives the same one from their shared JWT_SECRET (HKDF,
 * its own label), so a deployment that already keeps one secret need not keep a second.
 */
export function receiptSigningSeed(given: string | undefined, database: DatabaseConfig, jwtSecret: string): string {
  if (given !== undefined) return given;
  if (database.kind === 'postgres') return Buffer.from(hkdfSync('sha256', jwtSecret, 'ride-hailing', 'receipt-signing-key', 32)).toString('base64url');
  return keptBesideDatabase(database.file, 'receipt-key', () => randomBytes(32).toString('base64url'));
}

// Made once beside the database (readable by its owner only) and read on every later start; an
// in-memory database keeps nothing, so its secret lives as long as the process.
export function keptBesideDatabase(databaseFile: string, name: string, make: () => string): string {
  if (databaseFile === ':memory:') return make();
  const file = resolve(dirname(databaseFile), name);
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dirname(file), { recursive: true });
  try {
    writeFileSync(file, make(), { mode: 0o600, flag: 'wx' });
    chmodSync(file, 0o600);
  } catch (error) {
    // Another process created it first; use theirs.
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  return readFileSync(file, 'utf8').trim();
}
