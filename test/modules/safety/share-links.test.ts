import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { AFTER_END_MS, firstName, hashShareToken, linkOpen, newShareToken } from '../../../src/modules/safety/share-links.ts';

describe('trip-sharing links (pure rules)', () => {
  test('a token carries 256 random bits and the stored hash is not the token', () => {
    const { token, hash } = newShareToken();
    assert.equal(Buffer.from(token, 'base64url').length, 32);
    assert.match(hash, /^[0-9a-f]{64}$/);
    assert.notEqual(hash, token);
    assert.equal(hashShareToken(token), hash);
    assert.notEqual(newShareToken().token, token);
  });

  test('a link works until its expiry, its revocation or thirty minutes after the ride ended, whichever comes first', () => {
    const running = { completedAt: null, cancelledAt: null };
    const ended = { completedAt: new Date(1_000_000).toISOString(), cancelledAt: null };
    const cancelled = { completedAt: null, cancelledAt: new Date(1_000_000).toISOString() };
    const link = { expiresAt: 1_000_000_000, revokedAt: null };
    assert.equal(linkOpen(link, running, 5_000_000), true);
    assert.equal(linkOpen(link, running, 1_000_000_000), false);
    assert.equal(linkOpen({ ...link, revokedAt: 10 }, running, 20), false);
    assert.equal(linkOpen(link, ended, 1_000_000 + AFTER_END_MS - 1), true);
    assert.equal(linkOpen(link, ended, 1_000_000 + AFTER_END_MS), false);
    assert.equal(linkOpen(link, cancelled, 1_000_000 + AFTER_END_MS), false);
  });

  test('the first name is the first word of the name', () => {
    assert.equal(firstName('  Ravi Kumar '), 'Ravi');
    assert.equal(firstName('Ravi'), 'Ravi');
  });
});
