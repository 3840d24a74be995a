import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import pino from 'pino';
import { readableLogLine, terminalLog } from '../../src/platform/terminal-log.ts';

// What `npm start` shows on a terminal: readable lines from the same entries the JSON log holds.

function logged(write: (log: pino.Logger) => void): string {
  let text = '';
  const log = pino({ level: 'info' }, terminalLog({ write: (chunk: string) => (text += chunk) }));
  write(log);
  return text;
}

describe('terminal log', () => {
  test('a logged mail shows its text, so a sign-up code reads as a sentence', () => {
    const text = logged((log) => log.info({ mail: { to: 'asha@example.com', subject: 'Your sign-up code', text: 'Hello Asha,\n\nYour sign-up code is 123456. It expires in 10 minutes.' } }, 'mail written to the log'));
    assert.match(text, /^\d\d:\d\d:\d\d INFO {2}mail written to the log\n/);
    assert.match(text, /\n {2}Mail to asha@example\.com: Your sign-up code\n/);
    assert.match(text, /\n {4}Your sign-up code is 123456\. It expires in 10 minutes\.\n/);
    assert.doesNotMatch(text, /[{}"]/, 'no JSON');
  });

  test('requests in one line each: method and route, then status and time', () => {
    const text = logged((log) => {
      log.info({ reqId: 'r1', req: { method: 'POST', route: '/rides/book' } }, 'incoming request');
      log.info({ reqId: 'r1', res: { statusCode: 409 }, responseTime: 3.4 }, 'request completed');
    });
    const [incoming, completed] = text.trimEnd().split('\n');
    assert.match(incoming, /INFO {2}POST \/rides\/book incoming request \(r1\)$/);
    assert.match(completed, /INFO {2}→ 409 in 3 ms \(r1\)$/);
  });

  test('errors show their message, other fields stay, and a line that is not JSON passes unchanged', () => {
    const text = logged((log) => log.warn({ err: new Error('connection refused'), rideId: 7 }, 'ride change not announced everywhere'));
    assert.match(text, /WARN {2}ride change not announced everywhere \{"rideId":7\}\n {4}Error: connection refused\n$/);
    assert.equal(readableLogLine('plain text\n'), 'plain text\n');
  });

  test('the start-up entry is the banner', () => {
    const startup = { version: '0.1.0', database: 'SQLite x', sharedState: 'in-process', mail: 'log', payments: 'off', urls: { api: 'http://localhost:8080', docs: 'http://localhost:8080/docs', openapi: '' }, next: ['do this'] };
    const text = logged((log) => log.info({ startup }, 'ready'));
    assert.match(text, /^Ride-hailing API 0\.1\.0 is ready\n {2}API\s{10}http:\/\/localhost:8080/);
    assert.match(text, /Next:\n {2}- do this\n$/);
  });
});
