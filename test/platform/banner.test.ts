import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { loadConfig } from '../../src/config.ts';
import { humanBanner, startupSummary } from '../../src/platform/banner.ts';

const address = { address: '0.0.0.0', family: 'IPv4', port: 8080 };

describe('start-up banner', () => {
  test('production settings: hosts, ports and names only, never a password or user', () => {
    const config = loadConfig({
      DATABASE_URL: 'postgres://rides:pg-pass-123@db.internal:6543/rides?sslmode=require',
      JWT_SECRET: 'j'.repeat(40),
      REDIS_URL: 'rediss://default:redis-pass-456@cache.internal:6380/2',
      SMTP_URL: 'smtps://mailer:smtp-pass-789@smtp.example.com:465',
      RAZORPAY_KEY_ID: 'rzp_live_key',
      RAZORPAY_KEY_SECRET: 'rzp-secret-000',
      RAZORPAY_WEBHOOK_SECRET: 'hook-secret-111',
      WEB_APPS: 'false',
    });
    const summary = startupSummary(config, address, '1.2.3');
    assert.deepEqual(summary, {
      version: '1.2.3',
      database: 'PostgreSQL postgres://db.internal:6543/rides',
      sharedState: 'Redis rediss://cache.internal:6380/2 (prefix ride-hailing:)',
      mail: 'SMTP smtps://smtp.example.com:465',
      payments: 'Razorpay configured, webhook on',
      urls: { api: 'http://localhost:8080', docs: 'http://localhost:8080/docs', openapi: 'http://localhost:8080/openapi.json' },
    });
    const text = JSON.stringify(summary) + humanBanner(summary);
    for (const secret of ['pg-pass-123', 'redis-pass-456', 'smtp-pass-789', 'rzp-secret-000', 'hook-secret-111', 'rzp_live_key', 'mailer', 'rides:', 'sslmode', config.jwtSecret]) {
      assert.ok(!text.includes(secret), `banner shows ${secret}`);
    }
  });

  test('embedded defaults say where the data is and what is not set up', () => {
    const config = loadConfig({ DATABASE_URL: 'sqlite::memory:' });
    const summary = startupSummary(config, { address: '127.0.0.1', family: 'IPv4', port: 9000 }, '0.1.0');
    assert.equal(summary.database, 'SQLite in memory');
    assert.equal(summary.sharedState, 'in-process (single instance)');
    assert.match(summary.mail, /log/);
    assert.match(summary.payments, /not configured/);
    assert.equal(summary.urls.docs, 'http://127.0.0.1:9000/docs');
    assert.match(humanBanner(summary), /^Ride-hailing API 0\.1\.0 at http:\/\/127\.0\.0\.1:9000 \(docs http:\/\/127\.0\.0\.1:9000\/docs\)/);
    assert.deepEqual(summary.urls.apps, { rider: 'http://127.0.0.1:9000/app/', driver: 'http://127.0.0.1:9000/app/driver', operator: 'http://127.0.0.1:9000/app/ops' });
    assert.match(humanBanner(summary), /apps: rider http:\/\/127\.0\.0\.1:9000\/app\/, driver \S+\/app\/driver, operators \S+\/app\/ops$/);
  });
});
