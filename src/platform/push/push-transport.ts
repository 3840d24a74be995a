import webpush from 'web-push';
import type { PushConfig } from './push-config.ts';

/** Where one browser takes messages, and its keys (RFC 8291) to encrypt them to. */
export interface PushTarget {
  endpoint: string;
  keys: { p256dh: string; auth: string };
}

export interface PushDeliveryOptions {
  /** How long the push service keeps the message for a browser that is offline (RFC 8030 TTL), in seconds. */
  ttlSeconds: number;
  urgency: 'very-low' | 'low' | 'normal' | 'high';
  /** A newer message with the same topic replaces one the push service still holds. */
  topic?: string;
}

/** Sends one encrypted message to a push service; the HTTP status it answered (a network failure throws). */
export interface PushTransport {
  send(target: PushTarget, payload: string, options: PushDeliveryOptions): Promise<number>;
}

/** How long a push service may take to answer before the attempt counts as failed. */
const TIMEOUT_MS = 10_000;

/**
 * RFC 8030 delivery through the maintained `web-push` library: it encrypts the payload (aes128gcm,
 * RFC 8291) and signs the VAPID header (RFC 8292); the request itself goes out with fetch, which also
 * reaches a local http:// push service when PUSH_ALLOW_LOCAL_HTTP admits one (web-push's own sender
 * speaks https only).
 */
export class WebPushTransport implements PushTransport {
  readonly #vapid: PushConfig['vapid'];

  constructor(vapid: PushConfig['vapid']) {
    this.#vapid = vapid;
  }

  async send(target: PushTarget, payload: string, options: PushDeliveryOptions): Promise<number> {
    const request = webpush.generateRequestDetails(target, payload, {
      vapidDetails: this.#vapid,
      TTL: options.ttlSeconds,
      urgency: options.urgency,
      ...(options.topic ? { topic: options.topic } : {}),
    });
    const headers = Object.fromEntries(Object.entries(request.headers).map(([name, value]) => [name, String(value)]));
    const response = await fetch(request.endpoint, {
      method: request.method,
      headers,
      body: request.body ?? undefined,
      redirect: 'manual',
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
    await response.body?.cancel();
    return response.status;
  }
}
