import { createECDH, createHmac, createDecipheriv, createPublicKey, hkdfSync, randomBytes, verify, type ECDH } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { PushPayload, PushSubscriptionBody } from '../../src/contract/types.ts';
import { PUSH_SERVICE_HOSTS, pushConfig } from '../../src/platform/push/push-config.ts';

// A push service (RFC 8030) on this machine, standing in for FCM or Mozilla's: browsers' subscriptions
// are made here with their own P-256 key pair and auth secret, as a browser makes them, and every
// message received is checked as a push service checks it (the VAPID JWT, RFC 8292) and decrypted
// as the browser would (aes128gcm, RFC 8188 and RFC 8291) with nothing but node:crypto.

/** A message as the browser got it: decrypted, with what the push service saw. */
export interface Received {
  subscription: string;
  payload: PushPayload;
  ttl: number;
  urgency: string | undefined;
  topic: string | undefined;
  /** The VAPID JWT's claims, its signature checked against `k`. */
  vapid: { aud: string; exp: number; sub: string; k: string };
  /** What the service answered. */
  status: number;
}

interface Browser {
  ecdh: ECDH;
  auth: Buffer;
  /** What this push service answers for the subscription (201, or 410 once it is gone). */
  status: number;
  /** Answers for the next requests, in turn, before `status` again (`answerNext`). */
  next: number[];
}

/** The service's push settings for tests: a fresh VAPID key, and a local push service (http on this machine) admitted. */
export const testPushConfig = pushConfig({ privateKey: undefined, subject: 'mailto:ops@example.com', mailFrom: '', serviceHosts: PUSH_SERVICE_HOSTS, allowLocalHttp: true }, { kind: 'sqlite', file: ':memory:' }, '');

export class LocalPushService {
  readonly received: Received[] = [];
  /** Requests refused before decryption (a bad VAPID header, a body that does not decrypt): must stay empty. */
  readonly refused: string[] = [];
  readonly #browsers = new Map<string, Browser>();
  readonly #server: Server = createServer((request, response) => {
    void this.#receive(request).then((status) => response.writeHead(status).end(), (error: unknown) => {
      this.refused.push(String(error));
      response.writeHead(400).end();
    });
  });
  origin = '';

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.#server.listen(0, '127.0.0.1', resolve));
    this.origin = `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}`;
    return this;
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.#server.close(() => resolve()));
  }

  /** A browser's new subscription, as PushSubscription.toJSON() gives it. */
  subscribe(): PushSubscriptionBody {
    const ecdh = createECDH('prime256v1');
    ecdh.generateKeys();
    const auth = randomBytes(16);
    const id = randomBytes(12).toString('base64url');
    this.#browsers.set(id, { ecdh, auth, status: 201, next: [] });
    return { endpoint: `${this.origin}/push/${id}`, expirationTime: null, keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth: auth.toString('base64url') } };
  }

  /** From now on the service answers 410 Gone for this subscription, as when the user revoked the permission. */
  expire(endpoint: string): void {
    this.#browsers.get(idOf(endpoint))!.status = 410;
  }

  /** The next requests for this subscription are answered with these statuses in turn (a push service busy for a moment: 503), then as before. */
  answerNext(endpoint: string, ...statuses: number[]): void {
    this.#browsers.get(idOf(endpoint))!.next.push(...statuses);
  }

  to(endpoint: string): Received[] {
    return this.received.filter((message) => message.subscription === idOf(endpoint));
  }

  /** Waits for a message to this subscription that `matches`. */
  async waitFor(endpoint: string, matches: (payload: PushPayload) => boolean, what: string, timeoutMs = 10_000): Promise<Received> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.to(endpoint).find((message) => matches(message.payload));
      if (found) return found;
      if (this.refused.length > 0) throw new Error(`the push service refused a request: ${this.refused.join('; ')}`);
      if (Date.now() > deadline) throw new Error(`no push message ${what}; received ${JSON.stringify(this.to(endpoint).map((m) => m.payload))}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  async #receive(request: IncomingMessage): Promise<number> {
    const id = (request.url ?? '').replace(/^\/push\//, '');
    const browser = this.#browsers.get(id);
    if (request.method !== 'POST' || !browser) return 404;
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    if (request.headers['content-encoding'] !== 'aes128gcm') throw new Error(`Content-Encoding ${request.headers['content-encoding']}, not aes128gcm`);
    const ttl = Number(request.headers.ttl);
    if (!Number.isInteger(ttl) || ttl < 0) throw new Error(`TTL ${String(request.headers.ttl)} is not a number of seconds`);
    const vapid = checkVapid(String(request.headers.authorization ?? ''), this.origin);
    const payload = JSON.parse(decrypt(body, browser).toString('utf8')) as PushPayload;
    const header = (name: string) => (request.headers[name] === undefined ? undefined : String(request.headers[name]));
    const status = browser.next.shift() ?? browser.status;
    this.received.push({ subscription: id, payload, ttl, urgency: header('urgency'), topic: header('topic'), vapid, status });
    return status;
  }
}

const idOf = (endpoint: string) => new URL(endpoint).pathname.replace(/^\/push\//, '');

/**
 * RFC 8292: `vapid t=<JWT>, k=<public key>`; the JWT is ES256-signed by that key, its audience is this
 * push service's origin, it expires within 24 hours, and its subject is a contact (mailto: or https:).
 */
function checkVapid(authorization: string, origin: string): Received['vapid'] {
  const match = /^vapid t=([\w-]+\.[\w-]+\.[\w-]+), k=([\w-]+)$/.exec(authorization);
  if (!match) throw new Error(`Authorization is not a VAPID header: ${authorization.slice(0, 20)}…`);
  const [, jwt, k] = match;
  const [header, claims, signature] = jwt.split('.');
  const point = Buffer.from(k, 'base64url');
  const key = createPublicKey({ key: { kty: 'EC', crv: 'P-256', x: point.subarray(1, 33).toString('base64url'), y: point.subarray(33).toString('base64url') }, format: 'jwk' });
  if (!verify('sha256', Buffer.from(`${header}.${claims}`), { key, dsaEncoding: 'ieee-p1363' }, Buffer.from(signature, 'base64url'))) throw new Error('the VAPID JWT signature does not verify with k');
  if (JSON.parse(Buffer.from(header, 'base64url').toString()).alg !== 'ES256') throw new Error('the VAPID JWT is not ES256');
  const { aud, exp, sub } = JSON.parse(Buffer.from(claims, 'base64url').toString()) as { aud: string; exp: number; sub: string };
  if (aud !== origin) throw new Error(`the VAPID audience is ${aud}, not ${origin}`);
  const now = Date.now() / 1000;
  if (!(exp > now && exp <= now + 86_400)) throw new Error(`the VAPID JWT expires at ${exp}, not within 24 hours`);
  if (!/^(mailto:|https:)/.test(sub)) throw new Error(`the VAPID subject ${sub} is not a contact`);
  return { aud, exp, sub, k };
}

/** RFC 8291 on RFC 8188: the header names the sender's key and the salt; one record, padding delimiter 2. */
function decrypt(body: Buffer, browser: Browser): Buffer {
  const salt = body.subarray(0, 16);
  const recordSize = body.readUInt32BE(16);
  const idLength = body[20];
  const senderKey = body.subarray(21, 21 + idLength);
  const record = body.subarray(21 + idLength);
  if (record.length > recordSize) throw new Error(`one record of ${record.length} bytes, over the record size ${recordSize}`);
  const secret = browser.ecdh.computeSecret(senderKey);
  const keyInfo = Buffer.concat([Buffer.from('WebPush: info\0'), browser.ecdh.getPublicKey(), senderKey]);
  const ikm = Buffer.from(hkdfSync('sha256', secret, browser.auth, keyInfo, 32));
  const prk = createHmac('sha256', salt).update(ikm).digest();
  const expand = (info: string, length: number) => createHmac('sha256', prk).update(Buffer.concat([Buffer.from(info), Buffer.from([1])])).digest().subarray(0, length);
  const decipher = createDecipheriv('aes-128-gcm', expand('Content-Encoding: aes128gcm\0', 16), expand('Content-Encoding: nonce\0', 12));
  decipher.setAuthTag(record.subarray(record.length - 16));
  const padded = Buffer.concat([decipher.update(record.subarray(0, record.length - 16)), decipher.final()]);
  let end = padded.length - 1;
  while (end >= 0 && padded[end] === 0) end--;
  if (padded[end] !== 2) throw new Error('the last record does not end with the padding delimiter 2');
  return padded.subarray(0, end);
}
