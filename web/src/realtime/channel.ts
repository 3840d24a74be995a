import type { ApiClient } from '../api/client.ts';
import type { ServerMessage } from '../api/types.ts';

/** One message of the user's stream, by type (`ride.updated`, `offer.created`, …). */
export type Message = ServerMessage;

export type ChannelState = 'connecting' | 'live' | 'offline';

export interface ChannelHandlers {
  message: (message: Message) => void;
  /** Messages were missed beyond what the server keeps (or this is a fresh start): re-read over REST. */
  resync: () => void;
  state?: (state: ChannelState) => void;
  /** The server refused a message this client sent (a position without a vehicle profile, too many positions). */
  problem?: (code: string, message: string) => void;
}

// The server closes with these (docs/realtime.md).
const UNAUTHORIZED = 4401;
const PING_EVERY_MS = 20_000;
const PONG_WITHIN_MS = 10_000;
const BACKOFF_MS = [500, 1_000, 2_000, 5_000, 10_000, 20_000];

/**
 * The realtime channel (/realtime): authenticates with the first message, remembers the last
 * sequence number it handled, and after any drop reconnects with backoff and `resumeAfter`, so
 * nothing is missed or handled twice; when the server no longer has what was missed it says
 * `resync` and the app re-reads over REST. A ping every 20 s finds dead connections.
 */
export class RealtimeChannel {
  readonly #api: ApiClient;
  readonly #handlers: ChannelHandlers;
  #socket: WebSocket | undefined;
  #lastSeq: number | undefined;
  #attempt = 0;
  #stopped = true;
  #live = false;
  #reconnect: ReturnType<typeof setTimeout> | undefined;
  #ping: ReturnType<typeof setInterval> | undefined;
  #pongDue: ReturnType<typeof setTimeout> | undefined;
  /** The token the last auth message carried, to renew exactly that one after a 4401. */
  #token = '';

  constructor(api: ApiClient, handlers: ChannelHandlers) {
    this.#api = api;
    this.#handlers = handlers;
  }

  get live(): boolean {
    return this.#live;
  }

  start(): void {
    if (!this.#stopped) return;
    this.#stopped = false;
    this.#connect();
  }

  stop(): void {
    this.#stopped = true;
    clearTimeout(this.#reconnect);
    this.#teardown();
    this.#socket?.close(1000, 'signed out');
    this.#socket = undefined;
    this.#lastSeq = undefined;
  }

  /** Sends a client message; false when the channel is not live (the caller may use REST instead). */
  send(message: { type: 'position'; lat: number; lon: number }): boolean {
    if (!this.#live || !this.#socket) return false;
    this.#socket.send(JSON.stringify(message));
    return true;
  }

  #connect(): void {
    this.#setState('connecting');
    const socket = new WebSocket(`${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/realtime`);
    this.#socket = socket;
    socket.onopen = () => {
      this.#api.accessToken().then(
        (token) => {
          this.#token = token;
          socket.send(JSON.stringify({ type: 'auth', token, ...(this.#lastSeq === undefined ? {} : { resumeAfter: this.#lastSeq }) }));
        },
        () => socket.close(1000, 'signed out'),
      );
    };
    socket.onmessage = (event) => this.#receive(event.data);
    socket.onclose = (event) => {
      if (socket !== this.#socket) return;
      this.#teardown();
      if (this.#stopped) return;
      if (event.code === UNAUTHORIZED) {
        // The token ran out or was refused: renew it, then reconnect (a dead session stops here).
        this.#api.renew(this.#token).then(() => this.#schedule(0), () => this.stop());
        return;
      }
      this.#schedule(BACKOFF_MS[Math.min(this.#attempt++, BACKOFF_MS.length - 1)]);
    };
  }

  #receive(data: unknown): void {
    let message: { type?: string; seq?: number };
    try {
      message = JSON.parse(String(data)) as { type?: string; seq?: number };
    } catch {
      return;
    }
    clearTimeout(this.#pongDue);
    switch (message.type) {
      case 'ready': {
        const fresh = this.#lastSeq === undefined;
        this.#lastSeq ??= (message as { seq: number }).seq;
        this.#attempt = 0;
        this.#live = true;
        this.#setState('live');
        this.#ping = setInterval(() => this.#heartbeat(), PING_EVERY_MS);
        // A first connection starts from what REST says now; a resumed one gets the missed messages next.
        if (fresh) this.#handlers.resync();
        return;
      }
      case 'resync':
        return this.#handlers.resync();
      case 'pong':
        return;
      case 'error': {
        const { code, message: text } = message as { code?: string; message?: string };
        return this.#handlers.problem?.(code ?? 'ERROR', text ?? '');
      }
      default:
        if (typeof message.seq !== 'number') return;
        if (this.#lastSeq !== undefined && message.seq <= this.#lastSeq) return;
        this.#lastSeq = message.seq;
        this.#handlers.message(message as Message);
    }
  }

  #heartbeat(): void {
    this.#socket?.send(JSON.stringify({ type: 'ping' }));
    clearTimeout(this.#pongDue);
    this.#pongDue = setTimeout(() => this.#socket?.close(4000, 'no answer to ping'), PONG_WITHIN_MS);
  }

  #schedule(delayMs: number): void {
    clearTimeout(this.#reconnect);
    // Jitter, so that clients dropped together do not return together.
    this.#reconnect = setTimeout(() => this.#connect(), delayMs * (0.75 + Math.random() / 2));
  }

  #teardown(): void {
    this.#live = false;
    clearInterval(this.#ping);
    clearTimeout(this.#pongDue);
    if (!this.#stopped) this.#setState('offline');
  }

  #setState(state: ChannelState): void {
    this.#handlers.state?.(state);
  }
}
