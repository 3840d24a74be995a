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
    const summary = startupSummary(config, address, '1.2.3', { hasOperator: true });
    assert.deepEqual(summary, {
      version: '1.2.3',
      database: 'PostgreSQL postgres://db.internal:6543/rides',
      sharedState: 'Redis rediss://cache.internal:6380/2 (prefix ride-hailing:)',
      mail: 'SMTP smtps://smtp.example.com:465',
      payments: 'Razorpay configured, webhook on',
      urls: { api: 'http://localhost:8080', docs: 'http://localhost:8080/docs', openapi: 'http://localhost:8080/openapi.json' },
      next: [],
    });
    const text = JSON.stringify(summary) + humanBanner(summary);
    for (const secret of ['pg-pass-123', 'redis-pass-456', 'smtp-pass-789', 'rzp-secret-000', 'hook-secret-111', 'rzp_live_key', 'mailer', 'rides:', 'sslmode', config.jwtSecret, config.receiptSigningKey]) {
      assert.ok(!text.includes(secret), `banner shows ${secret}`);
    }
  });

  test('embedded defaults say where the data is, what is not set up, and what to do about it', () => {
    const config = loadConfig({ DATABASE_URL: 'sqlite::memory:' });
    const summary = startupSummary(config, { address: '127.0.0.1', family: 'IPv4', port: 9000 }, '0.1.0', { hasOperator: false });
    assert.equal(summary.database, 'SQLite in memory');
    assert.equal(summary.sharedState, 'in-process (single instance)');
    assert.match(summary.mail, /log/);
    assert.match(summary.payments, /not configured/);
    assert.equal(summary.urls.docs, 'http://127.0.0.1:9000/docs');
    assert.deepEqual(summary.urls.apps, { rider: 'http://127.0.0.1:9000/app/', driver: 'http://127.0.0.1:9000/app/driver', operator: 'http://127.0.0.1:9000/app/ops' });
    assert.equal(summary.next.length, 3);
    assert.match(summary.next[0], /^No operator account yet: npm run create-admin -- --email .+, then sign in at http:\/\/127\.0\.0\.1:9000\/app\/ops$/);
    assert.match(summary.next[1], /npm run dev\b/);
    assert.match(summary.next[2], /Sign-up codes are written to this log/);

    // On a terminal: short lines, one per fact, then the steps.
    const lines = humanBanner(summary).split('\n');
    assert.equal(lines[0], 'Ride-hailing API 0.1.0 is ready');
    assert.ok(lines.includes('  Console      http://127.0.0.1:9000/app/ops'), lines.join('\n'));
    assert.ok(lines.includes('Next:'));
    for (const line of lines.slice(0, lines.indexOf('Next:'))) assert.ok(line.length <= 80, `short enough for a terminal: ${line}`);
  });

  test('an operator and configured payments leave nothing to do', () => {
    const config = loadConfig({ DATABASE_URL: 'sqlite::memory:', RAZORPAY_KEY_ID: 'k', RAZORPAY_KEY_SECRET: 's', SMTP_URL: 'smtp://127.0.0.1:25' });
    const summary = startupSummary(config, address, '0.1.0', { hasOperator: true });
    assert.deepEqual(summary.next, []);
    assert.doesNotMatch(humanBanner(summary), /Next:/);
  });
});
