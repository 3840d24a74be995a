import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { ConfigError, loadConfig } from '../src/config.ts';
import { newVapidPrivateKey } from '../src/platform/push/push-config.ts';

describe('configuration', () => {
  test('defaults match the documented table', () => {
    const dir = mkdtempSync(join(tmpdir(), 'cfg-'));
    const config = loadConfig({ DATABASE_URL: `sqlite:${join(dir, 'x.db')}` });
    assert.equal(config.port, 8080);
    assert.equal(config.host, '0.0.0.0');
    assert.equal(config.accessTokenTtlSeconds, 3600);
    assert.equal(config.refreshTokenTtlSeconds, 2_592_000);
    assert.equal(config.razorpay.apiUrl, 'https://api.razorpay.com');
    assert.equal(config.serviceTimezone, 'Asia/Kolkata');
    assert.equal(config.rateLimitPerMinute, 600);
    assert.equal(config.authRateLimitPerMinute, 30);
    assert.equal(config.otpResendCooldownSeconds, 30);
    assert.equal(config.logLevel, 'info');
    assert.equal(config.redisUrl, undefined);
    assert.equal(config.smtpUrl, undefined);
    assert.deepEqual([...config.adminEmails], []);
    assert.equal(config.corsOrigins, '*');
    assert.equal(config.trustProxy, false);
    assert.equal(config.redisKeyPrefix, 'ride-hailing:');
    assert.deepEqual(config.routing, { provider: 'straight' });
    assert.deepEqual(loadConfig({ DATABASE_URL: `sqlite:${join(dir, 'x.db')}` }).database, { kind: 'sqlite', file: join(dir, 'x.db') });
  });

  test('the embedded JWT secret is generated once, kept private, and reused', () => {
    const dir = mkdtempSync(join(tmpdir(), 'cfg-'));
    const env = { DATABASE_URL: `sqlite:${join(dir, 'data', 'db.sqlite')}` };
    const first = loadConfig(env).jwtSecret;
    assert.ok(first.length >= 32);
    assert.equal(loadConfig(env).jwtSecret, first);
    const file = join(dir, 'data', 'jwt-secret');
    assert.equal(readFileSync(file, 'utf8'), first);
    assert.equal(statSync(file).mode & 0o777, 0o600);
  });

  test('the receipt signing key is kept like the JWT secret: generated once beside the embedded database, given or derived with PostgreSQL', () => {
    const dir = mkdtempSync(join(tmpdir(), 'cfg-'));
    const env = { DATABASE_URL: `sqlite:${join(dir, 'data', 'db.sqlite')}` };
    const first = loadConfig(env).receiptSigningKey;
    assert.equal(Buffer.from(first, 'base64url').length, 32);
    assert.equal(loadConfig(env).receiptSigningKey, first);
    const file = join(dir, 'data', 'receipt-key');
    assert.equal(readFileSync(file, 'utf8'), first);
    assert.equal(statSync(file).mode & 0o777, 0o600);
    const given = 'k'.repeat(43);
    assert.equal(loadConfig({ ...env, RECEIPT_SIGNING_KEY: given }).receiptSigningKey, given);
    // Instances sharing PostgreSQL and a JWT secret sign with one key, and it is not the secret itself.
    const postgres = (secret: string) => loadConfig({ DATABASE_URL: 'postgres://u@h/db', JWT_SECRET: secret }).receiptSigningKey;
    assert.equal(postgres('s'.repeat(32)), postgres('s'.repeat(32)));
    assert.notEqual(postgres('s'.repeat(32)), postgres('t'.repeat(32)));
    assert.throws(() => loadConfig({ ...env, RECEIPT_SIGNING_KEY: 'too-short' }), /RECEIPT_SIGNING_KEY/);
  });

  test('the VAPID key is kept like the receipt key: generated once beside the embedded database, given or derived with PostgreSQL', () => {
    const dir = mkdtempSync(join(tmpdir(), 'cfg-'));
    const env = { DATABASE_URL: `sqlite:${join(dir, 'data', 'db.sqlite')}` };
    const first = loadConfig(env).push;
    assert.equal(Buffer.from(first.vapid.privateKey, 'base64url').length, 32);
    assert.equal(Buffer.from(first.vapid.publicKey, 'base64url').length, 65);
    assert.deepEqual(loadConfig(env).push.vapid, first.vapid);
    const file = join(dir, 'data', 'vapid-key');
    assert.equal(readFileSync(file, 'utf8'), first.vapid.privateKey);
    assert.equal(statSync(file).mode & 0o777, 0o600);
    assert.equal(first.vapid.subject, 'mailto:no-reply@ride-hailing.local', "MAIL_FROM's address");
    assert.equal(first.allowLocalHttp, false);
    assert.ok(Array.isArray(first.serviceHosts) && first.serviceHosts.includes('fcm.googleapis.com'));
    const given = newVapidPrivateKey();
    assert.equal(loadConfig({ ...env, VAPID_PRIVATE_KEY: given }).push.vapid.privateKey, given);
    const postgres = (secret: string) => loadConfig({ DATABASE_URL: 'postgres://u@h/db', JWT_SECRET: secret }).push.vapid.publicKey;
    assert.equal(postgres('s'.repeat(32)), postgres('s'.repeat(32)));
    assert.notEqual(postgres('s'.repeat(32)), postgres('t'.repeat(32)));
    assert.throws(() => loadConfig({ ...env, VAPID_PRIVATE_KEY: 'too-short' }), /VAPID_PRIVATE_KEY/);
    // 32 bytes of 0xff are above the P-256 order: not a private key.
    assert.throws(() => loadConfig({ ...env, VAPID_PRIVATE_KEY: Buffer.alloc(32, 0xff).toString('base64url') }), /VAPID_PRIVATE_KEY is not a P-256 private key/);
    assert.throws(() => loadConfig({ ...env, VAPID_SUBJECT: 'ops@example.com' }), /VAPID_SUBJECT/);
    assert.equal(loadConfig({ ...env, PUSH_SERVICE_HOSTS: '*' }).push.serviceHosts, '*');
  });

  test('calls need both the telephony provider and the virtual number they show', () => {
    const env = { DATABASE_URL: 'sqlite::memory:' };
    assert.equal(loadConfig(env).telephony, undefined);
    assert.deepEqual(loadConfig({ ...env, TELEPHONY_URL: 'https://k:t@api.exotel.com/v1/Accounts/acme', TELEPHONY_CALLER_ID: '+918047000000' }).telephony, {
      url: 'https://k:t@api.exotel.com/v1/Accounts/acme',
      callerId: '+918047000000',
    });
    assert.throws(() => loadConfig({ ...env, TELEPHONY_URL: 'https://api.exotel.com/v1/Accounts/acme' }), (error: unknown) => error instanceof ConfigError && /TELEPHONY_CALLER_ID/.test(error.message));
    assert.throws(() => loadConfig({ ...env, TELEPHONY_URL: 'ftp://x', TELEPHONY_CALLER_ID: '+918047000000' }), /TELEPHONY_URL/);
  });

  test('values are parsed and lists normalised', () => {
    const config = loadConfig({
      DATABASE_URL: 'postgres://u@h:5432/db',
      JWT_SECRET: 'x'.repeat(32),
      PORT: '9000',
      ADMIN_EMAILS: ' Boss@Example.com, ops@example.com ,',
      RAZORPAY_API_URL: 'http://127.0.0.1:4010/',
      RATE_LIMIT_PER_MINUTE: '0',
    });
    assert.equal(config.port, 9000);
    assert.deepEqual([...config.adminEmails], ['boss@example.com', 'ops@example.com']);
    assert.equal(config.razorpay.apiUrl, 'http://127.0.0.1:4010');
    assert.equal(config.rateLimitPerMinute, 0);
    assert.deepEqual(config.database, { kind: 'postgres', url: 'postgres://u@h:5432/db' });
  });

  test('TRUST_PROXY: unset trusts no proxy; a hop count; a list of addresses and ranges', () => {
    const trust = (value: string | undefined) => loadConfig({ DATABASE_URL: 'sqlite::memory:', TRUST_PROXY: value }).trustProxy;
    assert.equal(trust(undefined), false);
    assert.equal(trust('false'), false);
    assert.equal(trust('0'), false);
    assert.equal(trust('1'), 1);
    assert.equal(trust('2'), 2);
    assert.deepEqual(trust('10.0.0.0/8, 192.168.1.4,::1,fd00::/8,loopback'), ['10.0.0.0/8', '192.168.1.4', '::1', 'fd00::/8', 'loopback']);
  });

  test('TRUST_PROXY=true is refused with a message that says what to give instead', () => {
    assert.throws(
      () => loadConfig({ DATABASE_URL: 'sqlite::memory:', TRUST_PROXY: 'true' }),
      (error: unknown) => error instanceof ConfigError && /TRUST_PROXY/.test(error.message) && /number of\s+proxies/.test(error.message),
    );
  });

  test('CORS_ORIGINS: * or a comma list of origins', () => {
    const origins = (value: string) => loadConfig({ DATABASE_URL: 'sqlite::memory:', CORS_ORIGINS: value }).corsOrigins;
    assert.equal(origins('*'), '*');
    assert.deepEqual(origins('https://app.example.com, http://localhost:5173/'), ['https://app.example.com', 'http://localhost:5173']);
  });

  test('ROUTING: straight, graph:<file> (resolved to an absolute path) or osrm:<url>', () => {
    const routing = (value: string) => loadConfig({ DATABASE_URL: 'sqlite::memory:', ROUTING: value }).routing;
    assert.deepEqual(routing('straight'), { provider: 'straight' });
    assert.deepEqual(routing('graph:data/roads.bin'), { provider: 'graph', file: join(process.cwd(), 'data/roads.bin') });
    assert.deepEqual(routing('graph:/srv/roads.bin'), { provider: 'graph', file: '/srv/roads.bin' });
    assert.deepEqual(routing('osrm:http://127.0.0.1:5000/'), { provider: 'osrm', url: 'http://127.0.0.1:5000' });
    assert.deepEqual(routing('osrm:https://osrm.example.com/v5'), { provider: 'osrm', url: 'https://osrm.example.com/v5' });
  });

  test('REDIS_KEY_PREFIX is read from the environment', () => {
    assert.equal(loadConfig({ DATABASE_URL: 'sqlite::memory:', REDIS_KEY_PREFIX: 'staging:rides:' }).redisKeyPrefix, 'staging:rides:');
  });

  test('a value outside an enumeration is refused with the values allowed', () => {
    assert.throws(
      () => loadConfig({ DATABASE_URL: 'sqlite::memory:', DISPATCH_MODE: 'fastest', LOG_LEVEL: 'loud' }),
      (error: unknown) =>
        error instanceof ConfigError &&
        error.message.includes('DISPATCH_MODE "fastest" is not one of broadcast, nearest, batched') &&
        error.message.includes('LOG_LEVEL "loud" is not one of fatal, error, warn, info, debug, trace, silent'),
    );
  });

  const bad: Array<[Record<string, string>, RegExp]> = [
    [{ TRUST_PROXY: 'yes' }, /TRUST_PROXY/],
    [{ TRUST_PROXY: '10.0.0.0/33' }, /TRUST_PROXY/],
    [{ TRUST_PROXY: '10.0.0.1,example.com' }, /TRUST_PROXY/],
    [{ TRUST_PROXY: '-1' }, /TRUST_PROXY/],
    [{ CORS_ORIGINS: 'app.example.com' }, /CORS_ORIGINS/],
    [{ CORS_ORIGINS: 'https://app.example.com/path' }, /CORS_ORIGINS/],
    [{ CORS_ORIGINS: ' , ' }, /CORS_ORIGINS/],
    [{ REDIS_KEY_PREFIX: 'has space' }, /REDIS_KEY_PREFIX/],
    [{ PORT: 'eighty' }, /PORT/],
    [{ PORT: '70000' }, /PORT/],
    [{ DATABASE_URL: 'mysql://x' }, /DATABASE_URL/],
    [{ DATABASE_URL: 'postgres://u@h/db' }, /JWT_SECRET/],
    [{ JWT_SECRET: 'too short' }, /JWT_SECRET/],
    [{ SERVICE_TIMEZONE: 'Mars/Olympus' }, /SERVICE_TIMEZONE/],
    [{ LOG_LEVEL: 'loud' }, /LOG_LEVEL/],
    [{ ACCESS_TOKEN_TTL_SECONDS: '-5' }, /ACCESS_TOKEN_TTL_SECONDS/],
    [{ SMTP_URL: 'http://mail' }, /SMTP_URL/],
    [{ REDIS_URL: 'localhost:6379' }, /REDIS_URL/],
    [{ ROUTING: 'google' }, /ROUTING "google" is not straight, graph:<file> or osrm:<url>/],
    [{ ROUTING: 'graph:' }, /ROUTING graph: needs the file/],
    [{ ROUTING: 'osrm:localhost:5000' }, /ROUTING osrm: needs the http\(s\) address/],
    [{ ROUTING: 'osrm:ftp://osrm.example.com' }, /ROUTING osrm:/],
    [{ ROUTING: 'osrm:http://osrm?profile=car' }, /ROUTING osrm:/],
  ];
  for (const [env, message] of bad) {
    test(`rejects ${JSON.stringify(env)}`, () => {
      assert.throws(() => loadConfig({ DATABASE_URL: 'sqlite::memory:', ...env }), (error: unknown) => {
        assert.ok(error instanceof ConfigError);
        assert.match(error.message, message);
        return true;
      });
    });
  }
});
