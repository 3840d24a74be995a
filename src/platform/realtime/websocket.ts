import websocket from '@fastify/websocket';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { WebSocket } from 'ws';
import type { AuthUser } from '../auth/roles.ts';
import type { EventMap } from '../event-bus.ts';
import type { Point } from '../geo/geo.ts';
import type { RealtimeHub, UserMessage } from './hub.ts';

/** Close codes a client must know (docs/realtime.md). */
export const CLOSE = {
  /** Server stopping: reconnect (to another instance) and resume. */
  GOING_AWAY: 1001,
  /** No auth message within AUTH_TIMEOUT_MS, a bad or expired token, or the account's tokens were ended. */
  UNAUTHORIZED: 4401,
  /** The client did not read: more than MAX_UNSENT_BYTES were waiting to be sent. */
  TOO_SLOW: 4429,
} as const;

export const AUTH_TIMEOUT_MS = 5_000;
export const HEARTBEAT_MS = 25_000;
/** Unsent bytes a connection may hold before it counts as a reader that does not read. */
export const MAX_UNSENT_BYTES = 1024 * 1024;
/** Position messages a connection may send per second; more are refused. */
export const POSITIONS_PER_SECOND = 5;
const MAX_MESSAGE_BYTES = 16 * 1024;

export interface Caller extends AuthUser {
  /** When the access token expires (epoch ms): the connection ends then. */
  expiresAt: number;
}

export interface RealtimeOptions<M extends EventMap> {
  hub: RealtimeHub<M>;
  /** Verifies an access token (a refresh token or anything else fails). */
  authenticate(token: string): Promise<Caller>;
  /** A driver's position sent over the socket. */
  onPosition(user: AuthUser, point: Point): Promise<void>;
}

/** What the server tells a client about its own message. */
interface Reply {
  type: 'ready' | 'resync' | 'pong' | 'error';
  [field: string]: unknown;
}

/**
 * GET /realtime: one WebSocket per app. The first message authenticates (a token never goes in a
 * URL); then the user's messages flow with their sequence numbers, a reconnecting client resumes
 * after the last one it saw, and a driver's app sends its positions. Heartbeats end dead
 * connections, a client that does not read is cut off, and a stopping server says "going away".
 */
export async function realtimeRoutes<M extends EventMap>(app: FastifyInstance, options: RealtimeOptions<M>): Promise<void> {
  const connections = new Set<WebSocket>();
  await app.register(websocket, {
    options: { maxPayload: MAX_MESSAGE_BYTES },
    preClose(done) {
      for (const socket of connections) socket.close(CLOSE.GOING_AWAY, 'server stopping; reconnect and resume');
      this.websocketServer.close(() => done());
    },
  });
  const alive = new WeakSet<WebSocket>();
  const heartbeat = setInterval(() => {
    for (const socket of connections) {
      if (!alive.has(socket)) {
        socket.terminate();
        continue;
      }
      alive.delete(socket);
      socket.ping();
    }
  }, HEARTBEAT_MS).unref();
  app.addHook('onClose', async () => clearInterval(heartbeat));

  app.get('/realtime', {
    websocket: true,
    config: { public: true },
    schema: {
      tags: ['realtime'],
      summary: 'The realtime channel (WebSocket): ride updates, driver positions, offers and notifications as they happen',
      description:
        'Upgrade to a WebSocket, then send `{"type":"auth","token":"<access token>","resumeAfter":<seq>}` within 5 s. ' +
        'The server answers `{"type":"ready","userId":…,"seq":…}` and then sends `{type, seq, at, data}` messages; see docs/realtime.md.',
    },
  }, (socket, request) => {
    connections.add(socket);
    alive.add(socket);
    socket.on('pong', () => alive.add(socket));
    socket.on('close', () => connections.delete(socket));
    new Connection(socket, options, request.log).start();
  });
}

class Connection<M extends EventMap> {
  readonly #socket: WebSocket;
  readonly #options: RealtimeOptions<M>;
  readonly #log: FastifyBaseLogger;
  #user: Caller | undefined;
  #detach: (() => void) | undefined;
  #timers: NodeJS.Timeout[] = [];
  #positions = { second: 0, count: 0 };

  constructor(socket: WebSocket, options: RealtimeOptions<M>, log: FastifyBaseLogger) {
    this.#socket = socket;
    this.#options = options;
    this.#log = log;
  }

  start(): void {
    this.#timers.push(setTimeout(() => this.#close(CLOSE.UNAUTHORIZED, 'no auth message within 5 s'), AUTH_TIMEOUT_MS));
    let authenticating = false;
    this.#socket.on('message', (data, isBinary) => {
      const message = isBinary || !Buffer.isBuffer(data) ? undefined : parse(data.toString('utf8'));
      if (!this.#user) {
        if (authenticating) return this.#reply({ type: 'error', code: 'NOT_READY', message: 'wait for "ready" before sending' });
        authenticating = true;
        return void this.#authenticate(message);
      }
      void this.#handle(message);
    });
    this.#socket.on('close', () => {
      for (const timer of this.#timers) clearTimeout(timer);
      this.#detach?.();
    });
  }

  async #authenticate(message: Record<string, unknown> | undefined): Promise<void> {
    if (message?.type !== 'auth' || typeof message.token !== 'string') return this.#close(CLOSE.UNAUTHORIZED, 'the first message must be {"type":"auth","token":…}');
    const resumeAfter = Number.isSafeInteger(message.resumeAfter) && (message.resumeAfter as number) >= 0 ? (message.resumeAfter as number) : undefined;
    let user: Caller;
    try {
      user = await this.#options.authenticate(message.token);
    } catch {
      return this.#close(CLOSE.UNAUTHORIZED, 'the access token is not valid');
    }
    if (this.#socket.readyState !== this.#socket.OPEN) return;
    clearTimeout(this.#timers[0]);
    this.#timers.push(setTimeout(() => this.#close(CLOSE.UNAUTHORIZED, 'the access token expired; reconnect with a new one'), Math.max(0, user.expiresAt - Date.now())));
    // Live messages wait until "ready" and the replay are out, so the order is always by sequence.
    const waiting: Array<UserMessage<M>> = [];
    let replaying = true;
    const attachment = await this.#options.hub.attach(user.id, (m) => (replaying ? waiting.push(m) : this.#send(m)), resumeAfter);
    if (this.#socket.readyState !== this.#socket.OPEN) return attachment.detach();
    this.#user = user;
    this.#detach = () => attachment.detach();
    this.#reply({ type: 'ready', userId: user.id, seq: attachment.seq });
    if (attachment.replay === 'resync') this.#reply({ type: 'resync' });
    else for (const m of attachment.replay) this.#send(m);
    replaying = false;
    for (const m of waiting) this.#send(m);
  }

  async #handle(message: Record<string, unknown> | undefined): Promise<void> {
    const user = this.#user!;
    if (message?.type === 'ping') return this.#reply({ type: 'pong' });
    if (message?.type !== 'position') return this.#reply({ type: 'error', code: 'UNKNOWN_MESSAGE', message: 'expected {"type":"position",…} or {"type":"ping"}' });
    if (user.role !== 'DRIVER') return this.#reply({ type: 'error', code: 'FORBIDDEN', message: 'only drivers send positions' });
    const { lat, lon } = message;
    if (typeof lat !== 'number' || typeof lon !== 'number' || !(Math.abs(lat) <= 90) || !(Math.abs(lon) <= 180)) {
      return this.#reply({ type: 'error', code: 'VALIDATION_FAILED', message: 'lat must be within ±90 and lon within ±180' });
    }
    const second = Math.floor(Date.now() / 1000);
    if (this.#positions.second !== second) this.#positions = { second, count: 0 };
    if (++this.#positions.count > POSITIONS_PER_SECOND) return this.#reply({ type: 'error', code: 'RATE_LIMITED', message: `at most ${POSITIONS_PER_SECOND} positions per second` });
    try {
      await this.#options.onPosition(user, { lat, lon });
    } catch (error) {
      const { statusCode, code, message: text } = error as { statusCode?: number; code?: string; message?: string };
      if (!statusCode || statusCode >= 500) this.#log.warn({ err: error }, 'position over the realtime channel not taken');
      this.#reply({ type: 'error', code: code ?? 'INTERNAL_ERROR', message: statusCode && statusCode < 500 ? (text ?? '') : 'the position could not be taken; try again' });
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
    if (this.#socket.bufferedAmount > MAX_UNSENT_BYTES) this.#close(CLOSE.TOO_SLOW, 'too many unsent messages; reconnect and resume');
  }

  #close(code: number, reason: string): void {
    if (this.#socket.readyState !== this.#socket.OPEN && this.#socket.readyState !== this.#socket.CONNECTING) return;
    this.#socket.close(code, reason);
    // The close frame waits behind what is unsent; a client that does not read never gets it.
    this.#timers.push(setTimeout(() => this.#socket.terminate(), 2_000).unref());
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
