import type { ApiClient } from './api.ts';
import type { ServerMessage } from './api-types.ts';
import type { Point } from './geo.ts';

/** Close codes of docs/realtime.md that this client acts on. */
const UNAUTHORIZED = 4401;
const RECONNECT_AFTER_MS = [100, 500, 1000, 2000, 5000];

export interface RealtimeHandlers {
  message(message: ServerMessage): void;
  /** Messages were missed and are no longer kept: read the state again over REST. */
  resync(): void;
  /** The server refused something this client sent, or the connection had to be opened again. */
  problem(text: string): void;
}

/**
 * One app's realtime channel (GET /realtime): authenticates with the first message, hands every
 * `{type, seq, at, data}` message over, and after a dropped connection opens a new one that
 * resumes after the last sequence number seen, so nothing is missed or seen twice.
 */
export class RealtimeConnection {
  readonly #url: string;
  readonly #client: ApiClient;
  readonly #handlers: RealtimeHandlers;
  #socket: WebSocket | undefined;
  #ready = false;
  #lastSeq: number | undefined;
  #closing = false;
  #failures = 0;

  constructor(baseUrl: string, client: ApiClient, handlers: RealtimeHandlers) {
    this.#url = `${baseUrl.replace(/^http/, 'ws')}/realtime`;
    this.#client = client;
    this.#handlers = handlers;
  }

  /** Resolves once the server said "ready". */
  open(): Promise<void> {
    return new Promise((resolve, reject) => {
      const socket = new WebSocket(this.#url);
      this.#socket = socket;
      this.#ready = false;
      socket.onopen = () => {
        const resumeAfter = this.#lastSeq;
        socket.send(JSON.stringify({ type: 'auth', token: this.#client.accessToken, ...(resumeAfter === undefined ? {} : { resumeAfter }) }));
      };
      socket.onmessage = (event) => {
        const message = JSON.parse(String(event.data)) as ServerMessage | { type: 'ready'; seq: number } | { type: 'resync' } | { type: 'pong' } | { type: 'error'; code: string; message: string };
        if (message.type === 'ready') {
          this.#ready = true;
          this.#failures = 0;
          this.#lastSeq ??= message.seq;
          return resolve();
        }
        if (message.type === 'resync') return this.#handlers.resync();
        if (message.type === 'pong') return;
        if (message.type === 'error') return this.#handlers.problem(`realtime: ${message.code} ${message.message}`);
        if (this.#lastSeq !== undefined && message.seq <= this.#lastSeq) return;
        this.#lastSeq = message.seq;
        this.#handlers.message(message);
      };
      socket.onclose = (event) => {
        const wasReady = this.#ready;
        this.#ready = false;
        if (this.#closing) return;
        if (!wasReady) reject(new Error(`the realtime channel closed before it was ready (${event.code} ${event.reason})`));
        if (wasReady) void this.#reconnect(event.code);
      };
    });
  }

  /** A driver's position; dropped while the connection is being opened again (the next one follows in seconds). */
  sendPosition(point: Point): void {
    if (this.#ready && this.#socket?.readyState === WebSocket.OPEN) this.#socket.send(JSON.stringify({ type: 'position', lat: point.lat, lon: point.lon }));
  }

  close(): void {
    this.#closing = true;
    this.#socket?.close(1000, 'done');
  }

  async #reconnect(code: number): Promise<void> {
    for (;;) {
      if (this.#closing) return;
      const waitMs = RECONNECT_AFTER_MS[Math.min(this.#failures, RECONNECT_AFTER_MS.length - 1)];
      this.#failures++;
      await new Promise((resolve) => setTimeout(resolve, waitMs));
      try {
        // The token ran out (or was ended): a new one, then resume.
        if (code === UNAUTHORIZED) await this.#client.renew();
        await this.open();
        this.#handlers.problem(`realtime: reconnected after close code ${code}`);
        return;
      } catch (error) {
        if (this.#failures > 10) return this.#handlers.problem(`realtime: gave up reconnecting: ${(error as Error).message}`);
      }
    }
  }
}
