import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

// A local stand-in for the phone providers this service uses, over real HTTP: the SMS gateway
// (`POST /sms`, JSON `{to, text}`, what SMS_URL points at) and Exotel's connect-call API
// (`POST /v1/Accounts/{sid}/Calls/connect.json`, form From, To, CallerId: TELEPHONY_URL is
// `/v1/Accounts/{sid}`). Nothing reaches a phone: what arrives is kept, printed by the dev script and
// listed at `GET /dev/messages?to=` and `GET /dev/calls` (newest first). `npm run dev:phone` runs it; the tests use the same class.

export interface StandInSms {
  id: string;
  to: string;
  text: string;
  at: number;
}

/** A call the stand-in was asked to bridge; it is "in progress" until the test or the developer ends it. */
export interface StandInCall {
  sid: string;
  from: string;
  to: string;
  callerId: string;
  status: 'in-progress' | 'completed';
}

export class PhoneStandIn {
  readonly messages: StandInSms[] = [];
  readonly calls: StandInCall[] = [];
  /** `fail`: the next requests are answered 500, as a provider that is down. */
  mode: 'answer' | 'fail' = 'answer';
  /** Called with each message taken and each call asked for (the dev script prints them). */
  onMessage: ((sms: StandInSms) => void) | undefined;
  onCall: ((call: StandInCall) => void) | undefined;
  url = '';
  readonly #server: Server = createServer((request, response) => void this.#handle(request, response));

  async start(port = 0, host = '127.0.0.1'): Promise<this> {
    await new Promise<void>((resolve) => this.#server.listen(port, host, resolve));
    const address = this.#server.address() as AddressInfo;
    this.url = `http://${host.includes(':') ? `[${host}]` : host}:${address.port}`;
    return this;
  }

  close(): Promise<void> {
    this.#server.closeAllConnections();
    return new Promise((resolve) => this.#server.close(() => resolve()));
  }

  /** The SMS_URL to give the service. */
  get smsUrl(): string {
    return `${this.url}/sms`;
  }

  /** The TELEPHONY_URL to give the service. */
  get telephonyUrl(): string {
    return `${this.url}/v1/Accounts/standin`;
  }

  /** The six-digit code in the latest message to this number. */
  lastCodeTo(phone: string): string | undefined {
    return this.messages.findLast((sms) => sms.to === phone)?.text.match(/\b\d{6}\b/)?.[0];
  }

  async #handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const reply = (status: number, body: unknown) => void response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    if (this.mode === 'fail') return reply(500, { error: 'stand-in told to fail' });
    const path = new URL(request.url ?? '/', 'http://stand-in').pathname;
    const text = await readBody(request);
    if (request.method === 'POST' && path === '/sms') {
      const body = parseJson(text) as { to?: unknown; text?: unknown } | undefined;
      if (typeof body?.to !== 'string' || typeof body.text !== 'string') return reply(400, { error: 'to and text are required' });
      const sms = { id: `sms_${randomBytes(6).toString('hex')}`, to: body.to, text: body.text, at: Date.now() };
      this.messages.push(sms);
      this.onMessage?.(sms);
      return reply(200, { id: sms.id });
    }
    const connect = /^\/v1\/Accounts\/[^/]+\/Calls\/connect\.json$/.test(path);
    if (request.method === 'POST' && connect) {
      const form = new URLSearchParams(text);
      const [from, to, callerId] = ['From', 'To', 'CallerId'].map((name) => form.get(name));
      if (!from || !to || !callerId) return reply(400, { RestException: { Status: 400, Message: 'From, To and CallerId are required' } });
      const call: StandInCall = { sid: randomBytes(16).toString('hex'), from, to, callerId, status: 'in-progress' };
      this.calls.push(call);
      this.onCall?.(call);
      // As Exotel answers: the call with both numbers (the service must pass neither on).
      return reply(200, { Call: { Sid: call.sid, From: from, To: to, PhoneNumberSid: callerId, Status: call.status } });
    }
    if (request.method === 'GET' && path === '/dev/calls') return reply(200, this.calls.toReversed());
    if (request.method === 'GET' && path === '/dev/messages') {
      const to = new URL(request.url ?? '/', 'http://stand-in').searchParams.get('to');
      return reply(200, this.messages.filter((sms) => to === null || sms.to === to).toReversed());
    }
    return reply(404, { error: `no ${request.method} ${path} here` });
  }
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
