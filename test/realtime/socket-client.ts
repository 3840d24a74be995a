import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import WebSocket from 'ws';
import type { ClientMessage } from '../../src/contract/types.ts';

/** A message from the server: a user message `{type, seq, at, data}` or a reply (ready, resync, pong, error). */
export interface ServerMessage {
  type: string;
  seq?: number;
  at?: string;
  data?: any;
  [field: string]: unknown;
}

/** How long a test waits for something that should come at once before it fails (a guard, not a measurement). */
const WAIT_MS = 10_000;

/** Starts the app on a free local port (once) and returns its WebSocket URL. */
export async function realtimeUrl(app: FastifyInstance): Promise<string> {
  if (!app.server.listening) await app.listen({ port: 0, host: '127.0.0.1' });
  return `ws://127.0.0.1:${(app.server.address() as AddressInfo).port}/realtime`;
}

/**
 * A client of the realtime channel that records everything it receives, for tests: wait for a
 * message by predicate, read the user messages in order, see how the server closed the socket.
 */
export class TestSocket {
  readonly ws: WebSocket;
  /** Everything received, in order. */
  readonly received: ServerMessage[] = [];
  /** Resolves with the close code and reason once the socket is closed. */
  readonly closed: Promise<{ code: number; reason: string }>;
  #waiters: Array<() => void> = [];
  /** How the server closed the socket, for failure messages. */
  #closedWith = '';

  private constructor(ws: WebSocket) {
    this.ws = ws;
    this.closed = new Promise((resolve) => ws.once('close', (code, reason) => resolve({ code, reason: reason.toString() })));
    // The server sends text frames only, which ws hands over as one Buffer each.
    ws.on('message', (data: Buffer) => {
      this.received.push(JSON.parse(data.toString('utf8')) as ServerMessage);
      for (const wake of this.#waiters.splice(0)) wake();
    });
    ws.on('close', (code, reason) => {
      this.#closedWith = `${code} ${reason.toString()}`;
      for (const wake of this.#waiters.splice(0)) wake();
    });
  }

  /** Opens a connection (not yet authenticated). `autoPong: false` makes a client that ignores pings. */
  static async open(url: string, options: { autoPong?: boolean } = {}): Promise<TestSocket> {
    const ws = new WebSocket(url, { autoPong: options.autoPong ?? true });
    const socket = new TestSocket(ws);
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', reject);
    });
    return socket;
  }

  /** Opens a connection and authenticates; resolves with the `ready` message. */
  static async connect(url: string, token: string, resumeAfter?: number): Promise<{ socket: TestSocket; ready: ServerMessage }> {
    const socket = await TestSocket.open(url);
    socket.send({ type: 'auth', token, ...(resumeAfter === undefined ? {} : { resumeAfter }) });
    const ready = await socket.waitFor((m) => m.type === 'ready', 'ready');
    return { socket, ready };
  }

  /** Sends a message as the apps do (typed by the contract). */
  send(message: ClientMessage): void {
    this.ws.send(JSON.stringify(message));
  }

  /** Sends what no app would: a string as it is, anything else as JSON (tests of what the server refuses). */
  sendRaw(message: unknown): void {
    this.ws.send(typeof message === 'string' ? message : JSON.stringify(message));
  }

  /** User messages (`{type, seq, at, data}`, not replies such as ready or pong), in the order received. */
  get messages(): ServerMessage[] {
    return this.received.filter((m) => m.data !== undefined);
  }

  /** Waits until a received message (from the start) matches; fails if the socket closes first. */
  async waitFor(match: (m: ServerMessage) => boolean, what: string): Promise<ServerMessage> {
    await this.until(() => this.received.some(match), what);
    return this.received.find(match)!;
  }

  /** Waits until `condition` holds, checked whenever a message arrives; fails if the socket closes first. */
  async until(condition: () => boolean, what: string): Promise<void> {
    const deadline = Date.now() + WAIT_MS;
    while (!condition()) {
      if (this.ws.readyState === WebSocket.CLOSED) assert.fail(`socket closed (${this.#closedWith}) while waiting for ${what}; ${this.#lastReceived()}`);
      if (Date.now() > deadline) assert.fail(`timed out waiting for ${what}; ${this.#lastReceived()}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, deadline - Date.now());
        this.#waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  #lastReceived(): string {
    return `${this.received.length} received, the last: ${JSON.stringify(this.received.slice(-3)).slice(0, 1500)}`;
  }

  /** Waits until `count` user messages have arrived. */
  async waitForMessages(count: number, what: string): Promise<ServerMessage[]> {
    await this.until(() => this.messages.length >= count, what);
    return this.messages;
  }

  /** Waits for the server to close the socket; fails if it does not within the guard time. */
  async closedBy(what: string): Promise<{ code: number; reason: string }> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`socket not closed: ${what}`)), WAIT_MS)));
    try {
      return await Promise.race([this.closed, timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  /** Closes from the client side and waits until closed. */
  async close(): Promise<void> {
    if (this.ws.readyState !== WebSocket.CLOSED) this.ws.close();
    await this.closed;
  }
}
