import { createPublicKey } from 'node:crypto';
import type { PushConfig } from '../../platform/push/push-config.ts';

// What a subscription may be: rules as pure functions (push-endpoints.test.ts).

const LOCAL_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

/**
 * Why the service will not post to this endpoint, or null when it will: https to one of the push
 * services allowed (PUSH_SERVICE_HOSTS), or http to this machine when PUSH_ALLOW_LOCAL_HTTP says so.
 * The address comes from a user, so no other host is ever sent a request.
 */
export function endpointProblem(endpoint: string, rules: Pick<PushConfig, 'serviceHosts' | 'allowLocalHttp'>): string | null {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return 'endpoint is not a URL';
  }
  if (url.username || url.password) return 'endpoint carries credentials';
  if (url.protocol === 'http:' && rules.allowLocalHttp && LOCAL_HOSTS.has(url.hostname)) return null;
  if (url.protocol !== 'https:') return 'endpoint must be an https URL';
  const host = url.hostname.toLowerCase();
  if (rules.serviceHosts === '*') return null;
  const allowed = rules.serviceHosts.some((name) => (name.startsWith('.') ? host.endsWith(name) : host === name));
  return allowed ? null : `endpoint is not at a known push service (${url.host}); PUSH_SERVICE_HOSTS lists those allowed`;
}

/** Why these keys cannot encrypt a message (RFC 8291), or null: p256dh a point on P-256 (65 bytes, uncompressed), auth 16 bytes. */
export function keysProblem(keys: { p256dh: string; auth: string }): string | null {
  const point = Buffer.from(keys.p256dh, 'base64url');
  if (point.length !== 65 || point[0] !== 4) return 'keys.p256dh is not an uncompressed P-256 public key (65 bytes)';
  try {
    createPublicKey({ key: { kty: 'EC', crv: 'P-256', x: point.subarray(1, 33).toString('base64url'), y: point.subarray(33).toString('base64url') }, format: 'jwk' });
  } catch {
    return 'keys.p256dh is not a point on P-256';
  }
  if (Buffer.from(keys.auth, 'base64url').length !== 16) return 'keys.auth is not 16 bytes';
  return null;
}

/** The push service's origin: what a log may say of an endpoint (its path is the browser's capability). */
export function pushServiceOf(endpoint: string): string {
  try {
    return new URL(endpoint).origin;
  } catch {
    return 'unknown';
  }
}
