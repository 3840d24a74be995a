import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { systemClock } from '../../src/platform/clock.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { signUp } from '../helpers/factories.ts';
import { realtimeUrl, TestSocket } from './socket-client.ts';

const UNAUTHORIZED = 4401;
/**
 * Below the configurable minimum, so the tests need not wait a minute; exp is in whole seconds, so a
 * token lives between TTL - 1 and TTL seconds, room enough for signing up and connecting on a busy machine.
 */
const TTL_SECONDS = 3;

const expiryOf = (token: string): number => (JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString()) as { exp: number }).exp * 1000;

describe('live connections end when their access token expires', () => {
  let t: TestApp;
  before(async () => {
    // The real clock: the test clock stands still, while a connection's expiry is a timer in real time,
    // so tokens issued by a test clock expire early by however long the app took to start.
    t = await createTestApp({ accessTokenTtlSeconds: TTL_SECONDS }, { clock: systemClock });
  });
  after(() => t.close());

  test('a socket is closed with 4401 at expiry, not before', async () => {
    const fresh = await signUp(t);
    const { socket } = await TestSocket.connect(await realtimeUrl(t.app), fresh.token);
    const { code, reason } = await socket.closedBy('the token expiring');
    const closedAt = Date.now();
    assert.equal(code, UNAUTHORIZED);
    assert.match(reason, /expired/);
    assert.ok(closedAt >= expiryOf(fresh.token) - 100, `closed ${expiryOf(fresh.token) - closedAt} ms before the token expired`);
  });

  test('a notification stream ends at expiry, not before', async () => {
    const base = (await realtimeUrl(t.app)).replace(/^ws:(.*)\/realtime$/, 'http:$1');
    const fresh = await signUp(t);
    const controller = new AbortController();
    const stream = await fetch(`${base}/notifications/stream`, { headers: { authorization: `Bearer ${fresh.token}` }, signal: controller.signal });
    assert.equal(stream.status, 200);
    const ended = (async () => {
      for await (const chunk of stream.body!) void chunk;
      return Date.now();
    })();
    const outcome = await Promise.race([ended, new Promise<string>((resolve) => setTimeout(() => resolve('still open'), (TTL_SECONDS + 6) * 1000))]);
    controller.abort();
    assert.notEqual(outcome, 'still open', 'the stream outlived its token');
    const expiresAt = expiryOf(fresh.token);
    const endedAt = outcome as number;
    assert.ok(endedAt >= expiresAt - 100 && endedAt < expiresAt + 3000, `ended ${endedAt - expiresAt} ms after the token expired`);
  });
});
