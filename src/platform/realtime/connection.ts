import type { FastifyBaseLogger } from 'fastify';
import type { WebSocket } from 'ws';
import type { AuthUser } from '../auth/roles.ts';
import type { Clock } from '../clock.ts';
import type { EventMap } from '../event-bus.ts';
import type { ClientMessageDispatcher } from './client-messages.ts';
import type { RealtimeHub, UserMessage } from './hub.ts';
import type { RealtimeLimits } from './limits.ts';
import { MessageBudget } from './message-budget.ts';

/** Close codes a client must know (docs/realtime.md). */
export const CLOSE = {
  /** Server stopping: reconnect (to another instance) and resume. */
  GOING_AWAY: 1001,
  /** The server cannot deliver messages now (Redis unavailable): reconnect after a pause and resume. */
  TRY_AGAIN_LATER: 1013,
  /** No auth message in time; a bad, expired or refresh token; the token expired, or an account change ended it, while connected. */
  UNAUTHORIZED: 4401,
  /** The client sent far more messages than its budget: a flood, not an app. */
  FLOODING: 4408,
  /** The user opened more connections than an instance keeps for one user: this was their oldest. */
  TOO_MANY_CONNECTIONS: 4409,
  /** The client did not read: more than maxUnsentBytes were waiting to be sent. */
  TOO_SLOW: 4429,
} as const;

export interface Caller extends AuthUser {
  /** When the access token expires (epoch ms): the connection ends then. */
  expiresAt: number;
}

export interface ConnectionOptions<M extends EventMap> {
  hub: RealtimeHub<M>;
  /** Verifies an access token (a refresh token or anything else fails with a 401). */
  authenticate(token: string): Promise<Caller>;
  /** The message types the modules take from clients, besides the channel's own `auth` and `ping`. */
  messages: ClientMessageDispatcher;
  /** Where the message budget's seconds come from. */
  clock: Clock;
  /** Hears each connection once it is ready (to keep a user's connections counted), and once it closed. */
  onReady(connection: Connection<M>): void;
  onClosed(connection: Connection<M>): void;
  /** An authenticated connection ended from the client's side (closed, or dead to heartbeats), not by this server. */
  onLost?(user: AuthUser): void;
}

/** What the server tells a client about its own message. */
interface Reply {
  type: 'ready' | 'resync' | 'pong' | 'error';
  [field: string]: unknown;
}

/** One client's WebSocket: authentication, its user's messages, what it sends, and why it ends. */
export class Connection<M extends EventMap> {
  readonly #socket: WebSocket;
  readonly #options: ConnectionOptions<M>;
  readonly #limits: RealtimeLimits;
  readonly #log: FastifyBaseLogger;
  readonly #budget: MessageBudget;
  #user: Caller | undefined;
  #token = '';
  #detach: (() => void) | undefined;
  #timers: NodeJS.Timeout[] = [];
  #answeredPing = true;
  /** This server closed the connection (shutting down, a limit, the token): the client did not go away. */
  #closedHere = false;

  constructor(socket: WebSocket, options: ConnectionOptions<M>, limits: RealtimeLimits, log: FastifyBaseLogger) {
    this.#socket = socket;
    this.#options = options;
    this.#limits = limits;
    this.#log = log;
    this.#budget = new MessageBudget(limits.messagesPerSecond, limits.floodMessagesPerSecond);
  }

  /** The authenticated user, once `ready` was sent. */
  get userId(): number | undefined {
    return this.#user?.id;
  }

  start(): void {
    const authTimer = setTimeout(() => this.close(CLOSE.UNAUTHORIZED, 'no auth message in time'), this.#limits.authTimeoutMs);
    this.#timers.push(authTimer);
    let authenticating = false;
    // Every frame a client sends counts, WebSocket pings and pongs too; a pong still answers the heartbeat.
    this.#socket.on('pong', () => {
      this.#answeredPing = true;
      this.#admit();
    });
    this.#socket.on('ping', (data) => {
      if (this.#admit()) this.#socket.pong(data);
    });
    this.#socket.on('message', (data, isBinary) => {
      if (!this.#admit()) return;
      const message = isBinary || !Buffer.isBuffer(data) ? undefined : parse(data.toString('utf8'));
      if (!this.#user) {
        if (authenticating) return this.#reply({ type: 'error', code: 'NOT_READY', message: 'wait for "ready" before sending' });
        authenticating = true;
        clearTimeout(authTimer);
        return void this.#authenticate(message);
      }
      void this.#handle(message);
    });
    this.#socket.on('close', () => {
      for (const timer of this.#timers) clearTimeout(timer);
      this.#detach?.();
      this.#options.onClosed(this);
      if (this.#user && !this.#closedHere) this.#options.onLost?.(this.#user);
    });
  }

  /** Pings the client, or drops it when it did not answer the previous ping. */
  heartbeat(): void {
    if (!this.#answeredPing) return this.#socket.terminate();
    this.#answeredPing = false;
    this.#socket.ping();
  }

  /** Checks the connection's token again when its user's earlier tokens were ended. */
  recheck(userId: number): void {
    if (this.#user?.id !== userId) return;
    this.#options.authenticate(this.#token).catch(() => this.close(CLOSE.UNAUTHORIZED, 'a change to the account ended the token; log in again'));
  }

  close(code: number, reason: string): void {
    if (this.#socket.readyState !== this.#socket.OPEN) return;
    this.#closedHere = true;
    this.#socket.close(code, reason);
    // The close frame waits behind what is unsent; a client that does not read never gets it.
    this.#timers.push(setTimeout(() => this.#socket.terminate(), this.#limits.closeGraceMs).unref());
  }

  /** Counts a message against the budget; whether to handle it. */
  #admit(): boolean {
    if (this.#socket.readyState !== this.#socket.OPEN) return false;
    switch (this.#budget.take(this.#options.clock.now())) {
      case 'handle':
        return true;
      case 'refuse':
        this.#reply({ type: 'error', code: 'RATE_LIMITED', message: `at most ${this.#limits.messagesPerSecond} messages a second; the rest of this second's are dropped` });
        return false;
      case 'drop':
        return false;
      case 'flood':
        this.close(CLOSE.FLOODING, 'too many messages');
        // Nothing more is read from a flooder: its frames stay in the kernel until the socket is cut.
        this.#socket.pause();
        return false;
    }
  }

  async #authenticate(message: Record<string, unknown> | undefined): Promise<void> {
    if (message?.type !== 'auth' || typeof message.token !== 'string') return this.close(CLOSE.UNAUTHORIZED, 'the first message must be {"type":"auth","token":…}');
    const resumeAfter = Number.isSafeInteger(message.resumeAfter) && (message.resumeAfter as number) >= 0 ? (message.resumeAfter as number) : undefined;
    let user: Caller;
    try {
      user = await this.#options.authenticate(message.token);
    } catch {
      return this.close(CLOSE.UNAUTHORIZED, 'the access token is not valid');
    }
    if (this.#socket.readyState !== this.#socket.OPEN) return;
    this.#timers.push(setTimeout(() => this.close(CLOSE.UNAUTHORIZED, 'the access token expired; reconnect with a new one'), Math.max(0, user.expiresAt - Date.now())));
    // Live messages wait until "ready" and the replay are out, so the order is always by sequence.
    const waiting: Array<UserMessage<M>> = [];
    let replaying = true;
    let attachment;
    try {
      attachment = await this.#options.hub.attach(user.id, (m) => (replaying ? waiting.push(m) : this.#send(m)), resumeAfter, (interruption) => {
        if (interruption.kind === 'unavailable') this.close(CLOSE.TRY_AGAIN_LATER, 'the server cannot deliver messages right now; reconnect and resume');
        else this.#reply({ type: 'resync', seq: interruption.seq });
      });
    } catch (error) {
      this.#log.warn({ err: error }, 'realtime connection not attached');
      return this.close(CLOSE.TRY_AGAIN_LATER, 'the server cannot deliver messages right now; reconnect and resume');
    }
    if (this.#socket.readyState !== this.#socket.OPEN) return attachment.detach();
    this.#user = user;
    this.#token = message.token;
    this.#detach = () => attachment.detach();
    this.#reply({ type: 'ready', userId: user.id, seq: attachment.seq });
    if (attachment.resync) this.#reply({ type: 'resync', seq: attachment.seq });
    for (const m of attachment.replay) this.#send(m);
    replaying = false;
    for (const m of waiting) this.#send(m);
    this.#options.onReady(this);
  }

  async #handle(message: Record<string, unknown> | undefined): Promise<void> {
    if (message?.type === 'ping') return this.#reply({ type: 'pong' });
    // A module's message, checked by its registration (client-messages.ts); limits of its own (a
    // driver's positions over all their connections and REST) are the module's.
    try {
      await this.#options.messages.dispatch(this.#user!, message);
    } catch (error) {
      const { statusCode, code, message: text } = error as { statusCode?: number; code?: string; message?: string };
      if (!statusCode || statusCode >= 500) this.#log.warn({ err: error, type: message?.type }, 'realtime client message not taken');
      this.#reply({ type: 'error', code: code ?? 'INTERNAL_ERROR', message: statusCode && statusCode < 500 ? (text ?? '') : 'the message could not be taken; try again' });
    }
  }

  #send(message: UserMessage<M>): void {
    this.#write(JSON.stringify(message));
  }

  #reply(reply: Reply): void {
    this.#write(JSON.stringify(reply));
  }

  #write(text: string): void {
    if (this.#socket.readyState !== this.#socket.OPEN) return;
    this.#socket.send(text);
    // A client that stopped reading is cut off rather than buffered without bound.
    if (this.#socket.bufferedAmount > this.#limits.maxUnsentBytes) this.close(CLOSE.TOO_SLOW, 'too many unsent messages; reconnect and resume');
  }
}

function parse(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}
