import type { ChannelReply, ClientMessage, ServerMessage } from './types.ts';

// The one resume client of the realtime channel (docs/realtime.md), for the web apps (the
// browser's WebSocket) and the simulator and tests (Node's global WebSocket): it authenticates
// with the first message, keeps the highest `seq` it handled, drops anything at or below it, and
// after a drop connects again with `resumeAfter`, acting on each close code as the docs say.

export type ChannelState = 'connecting' | 'live' | 'offline';

/** Why the app should read its state again over REST: a first connection, the server's `resync`, or a 1013 close. */
export type ResyncReason = 'start' | 'resync' | 'unavailable';

export interface ResumeHandlers {
  message(message: ServerMessage): void;
  /** What REST says now is the truth to carry on from. */
  resync(reason: ResyncReason): void;
  state?(state: ChannelState): void;
  /** The server refused a message this client sent (`error`), or the channel stopped for good (`code` a close code). */
  problem?(code: string, text: string): void;
  /** The connection closed with `code`; the client connects again unless the code says not to. */
  closed?(code: number): void;
  /** A `seq` jumped with neither `resync` nor a close before it: the server broke its promise. */
  gap?(expected: number, got: number): void;
}

export interface ResumeOptions {
  /** `ws://host/realtime` (REALTIME_PATH of routes.ts). */
  url: string;
  /** A valid access token for the `auth` message. */
  token(): Promise<string>;
  /** The token was refused (4401): a new one, or a throw (the session ended: the client stops). */
  renew(refused: string): Promise<string>;
  /** Waits before connecting again after the n-th failure in a row (the last repeats), jittered ±25 %. */
  backoffMs?: number[];
  /** A `ping` this often, and a connection that answers none within half of it is given up; 0 for none. */
  pingEveryMs?: number;
  /** Failures in a row before the client gives up (reported as problem `GAVE_UP`); unlimited by default. */
  maxFailures?: number;
}

/** Close codes (docs/realtime.md "Close codes"). */
export const CLOSE = { GOING_AWAY: 1001, TOO_BIG: 1009, TRY_AGAIN_LATER: 1013, UNAUTHORIZED: 4401, FLOODING: 4408, TOO_MANY_CONNECTIONS: 4409 } as const;
/** A code of our own when a ping went unanswered. */
const NO_PONG = 4000;
/** The client is wrong (a message too big, flooding) or the user has newer connections: connecting again would not help. */
const FINAL = new Set<number>([CLOSE.TOO_BIG, CLOSE.FLOODING, CLOSE.TOO_MANY_CONNECTIONS]);
/** "Reconnect after a few seconds" for 1013. */
const UNAVAILABLE_WAIT_MS = 3_000;
const DEFAULT_BACKOFF_MS = [500, 1_000, 2_000, 5_000, 10_000, 20_000];

export class ResumeClient {
  readonly #options: ResumeOptions;
  readonly #handlers: ResumeHandlers;
  #socket: WebSocket | undefined;
  #lastSeq: number | undefined;
  #failures = 0;
  #stopped = true;
  #live = false;
  /** Set by a 1013 close: the next `ready` asks the app to re-read. */
  #reread = false;
  #timers: { reconnect?: ReturnType<typeof setTimeout>; ping?: ReturnType<typeof setInterval>; pong?: ReturnType<typeof setTimeout> } = {};
  /** The token the last auth message carried, to renew exactly that one after a 4401. */
  #token = '';
  #readyWaiters: Array<{ resolve: () => void; reject: (error: Error) => void }> = [];

  constructor(options: ResumeOptions, handlers: ResumeHandlers) {
    this.#options = options;
    this.#handlers = handlers;
  }

  get live(): boolean {
    return this.#live;
  }

  /** The highest `seq` handled (what `resumeAfter` will carry). */
  get lastSeq(): number | undefined {
    return this.#lastSeq;
  }

  start(): void {
    if (!this.#stopped) return;
    this.#stopped = false;
    this.#connect();
  }

  /** Starts, and resolves at the next `ready`; rejects when the client stops first. */
  ready(): Promise<void> {
    const waiting = new Promise<void>((resolve, reject) => this.#readyWaiters.push({ resolve, reject }));
    this.start();
    return waiting;
  }

  /** Ends the connection and forgets the `seq`: a later start is a fresh one. */
  stop(): void {
    this.#stop();
    this.#lastSeq = undefined;
  }

  /** Sends a client message; false when the channel is not live (the caller may use REST instead). */
  send(message: ClientMessage): boolean {
    if (!this.#live || this.#socket?.readyState !== WebSocket.OPEN) return false;
    this.#socket.send(JSON.stringify(message));
    return true;
  }

  #connect(): void {
    this.#setState('connecting');
    const socket = new WebSocket(this.#options.url);
    this.#socket = socket;
    socket.onopen = () => {
      this.#options.token().then(
        (token) => {
          this.#token = token;
          socket.send(JSON.stringify({ type: 'auth', token, ...(this.#lastSeq === undefined ? {} : { resumeAfter: this.#lastSeq }) } satisfies ClientMessage));
        },
        () => socket.close(1000, 'signed out'),
      );
    };
    socket.onmessage = (event) => this.#receive(event.data);
    socket.onclose = (event) => {
      if (socket !== this.#socket) return;
      this.#teardown();
      if (this.#stopped) return;
      this.#handlers.closed?.(event.code);
      this.#afterClose(event.code, event.reason);
    };
  }

  #afterClose(code: number, reason: string): void {
    if (FINAL.has(code)) return this.#giveUp(String(code), reason || `closed with ${code}`);
    if (code === CLOSE.UNAUTHORIZED) {
      // The token ran out or was refused: renew it, then connect again (a dead session stops here).
      this.#options.renew(this.#token).then(
        () => this.#schedule(0),
        (error: unknown) => this.#giveUp('SIGNED_OUT', error instanceof Error ? error.message : 'the session ended'),
      );
      return;
    }
    if (this.#options.maxFailures !== undefined && this.#failures >= this.#options.maxFailures) return this.#giveUp('GAVE_UP', `no connection after ${this.#failures} tries (last close ${code})`);
    if (code === CLOSE.TRY_AGAIN_LATER) this.#reread = true;
    const backoff = this.#options.backoffMs ?? DEFAULT_BACKOFF_MS;
    const wait = code === CLOSE.GOING_AWAY ? 0 : backoff[Math.min(this.#failures, backoff.length - 1)];
    this.#failures++;
    this.#schedule(code === CLOSE.TRY_AGAIN_LATER ? Math.max(wait, UNAVAILABLE_WAIT_MS) : wait);
  }

  #receive(data: unknown): void {
    let message: ServerMessage | ChannelReply;
    try {
      message = JSON.parse(String(data)) as ServerMessage | ChannelReply;
    } catch {
      return;
    }
    clearTimeout(this.#timers.pong);
    switch (message.type) {
      case 'ready': {
        const fresh = this.#lastSeq === undefined;
        this.#lastSeq ??= message.seq;
        this.#failures = 0;
        this.#live = true;
        this.#setState('live');
        const every = this.#options.pingEveryMs ?? 0;
        if (every > 0) this.#timers.ping = setInterval(() => this.#heartbeat(every / 2), every);
        for (const waiter of this.#readyWaiters.splice(0)) waiter.resolve();
        // A first connection starts from what REST says now; a resumed one gets the missed messages next.
        if (fresh || this.#reread) this.#handlers.resync(fresh ? 'start' : 'unavailable');
        this.#reread = false;
        return;
      }
      case 'resync':
        this.#lastSeq = message.seq;
        return this.#handlers.resync('resync');
      case 'pong':
        return;
      case 'error':
        return this.#handlers.problem?.(message.code ?? 'ERROR', message.message ?? '');
      default: {
        if (typeof message.seq !== 'number') return;
        if (this.#lastSeq !== undefined && message.seq <= this.#lastSeq) return;
        if (this.#lastSeq !== undefined && message.seq > this.#lastSeq + 1) this.#handlers.gap?.(this.#lastSeq + 1, message.seq);
        this.#lastSeq = message.seq;
        this.#handlers.message(message);
      }
    }
  }

  #heartbeat(answerWithinMs: number): void {
    this.#socket?.send(JSON.stringify({ type: 'ping' } satisfies ClientMessage));
    clearTimeout(this.#timers.pong);
    this.#timers.pong = setTimeout(() => this.#socket?.close(NO_PONG, 'no answer to ping'), answerWithinMs);
  }

  #schedule(delayMs: number): void {
    clearTimeout(this.#timers.reconnect);
    if (this.#stopped) return;
    // Jitter, so that clients dropped together do not return together.
    this.#timers.reconnect = setTimeout(() => this.#connect(), delayMs * (0.75 + Math.random() / 2));
  }

  #giveUp(code: string, text: string): void {
    this.#stop(new Error(`realtime channel stopped: ${code} ${text}`));
    this.#handlers.problem?.(code, text);
  }

  #stop(reason = new Error('realtime channel stopped')): void {
    this.#stopped = true;
    clearTimeout(this.#timers.reconnect);
    this.#teardown();
    const socket = this.#socket;
    this.#socket = undefined;
    if (socket && socket.readyState !== WebSocket.CLOSED) socket.close(1000, 'done');
    for (const waiter of this.#readyWaiters.splice(0)) waiter.reject(reason);
  }

  #teardown(): void {
    this.#live = false;
    clearInterval(this.#timers.ping);
    clearTimeout(this.#timers.pong);
    if (!this.#stopped) this.#setState('offline');
  }

  #setState(state: ChannelState): void {
    this.#handlers.state?.(state);
  }
}
