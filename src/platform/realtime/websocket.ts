import websocket from '@fastify/websocket';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { Type, type Static } from 'typebox';
import type { WebSocket } from 'ws';
import type { AuthUser } from '../auth/roles.ts';
import type { EventMap } from '../event-bus.ts';
import type { Point } from '../geo/geo.ts';
import { REPLAY_MS, type RealtimeHub, type UserMessage } from './hub.ts';
import { REALTIME_LIMITS, type RealtimeLimits } from './limits.ts';

/** Close codes a client must know (docs/realtime.md). */
export const CLOSE = {
  /** Server stopping: reconnect (to another instance) and resume. */
  GOING_AWAY: 1001,
  /** The server cannot deliver messages now (Redis unavailable): reconnect after a pause and resume. */
  TRY_AGAIN_LATER: 1013,
  /** No auth message in time; a bad, expired or refresh token; the token expired, or an account change ended it, while connected. */
  UNAUTHORIZED: 4401,
  /** The client did not read: more than maxUnsentBytes were waiting to be sent. */
  TOO_SLOW: 4429,
} as const;

export interface Caller extends AuthUser {
  /** When the access token expires (epoch ms): the connection ends then. */
  expiresAt: number;
}

export interface RealtimeOptions<M extends EventMap> {
  hub: RealtimeHub<M>;
  /** Verifies an access token (a refresh token or anything else fails with a 401). */
  authenticate(token: string): Promise<Caller>;
  /** A driver's position sent over the socket. */
  onPosition(user: AuthUser, point: Point): Promise<void>;
  /** Calls back with each user whose earlier tokens an account change ended; returns how to stop. */
  onRevoked(listener: (userId: number) => void): () => void;
  limits?: Partial<RealtimeLimits>;
}

/** What the server tells a client about its own message. */
interface Reply {
  type: 'ready' | 'resync' | 'pong' | 'error';
  [field: string]: unknown;
}

const ms = (description: string) => Type.Integer({ minimum: 0, description });
const ChannelDescription = Type.Object(
  {
    protocol: Type.Literal('websocket'),
    authTimeoutMs: ms('send `{"type":"auth",…}` within this time after connecting'),
    heartbeatMs: ms('the server pings this often; answer pings (WebSocket clients do by themselves)'),
    replayMs: ms('messages are kept this long for `resumeAfter`'),
    maxMessageBytes: Type.Integer({ description: 'the largest message a client may send' }),
    maxUnsentBytes: Type.Integer({ description: 'a client with more than this waiting to be read is closed with 4429' }),
    positionsPerSecond: Type.Integer({ description: 'position messages a connection may send per second' }),
  },
  { description: 'Without an Upgrade header: the parameters of the channel' },
);
type ChannelDescription = Static<typeof ChannelDescription>;

/**
 * GET /realtime: one WebSocket per app. The first message authenticates (a token never goes in a
 * URL); then the user's messages flow with their sequence numbers, a reconnecting client resumes
 * after the last one it saw, and a driver's app sends its positions. Heartbeats end dead
 * connections, a client that does not read is cut off, and a stopping server says "going away".
 */
export async function realtimeRoutes<M extends EventMap>(app: FastifyInstance, options: RealtimeOptions<M>): Promise<void> {
  const limits = { ...REALTIME_LIMITS, ...options.limits };
  const connections = new Set<Connection<M>>();
  await app.register(websocket, {
    options: { maxPayload: limits.maxMessageBytes },
    // A client's protocol error (an oversized or malformed frame) is its own; ws has already closed with the matching code.
    errorHandler: (error, socket, request) => {
      request.log.info({ err: error }, 'realtime connection ended by a protocol error');
      socket.terminate();
    },
    preClose(done) {
      for (const connection of connections) connection.close(CLOSE.GOING_AWAY, 'server stopping; reconnect and resume');
      // Calls back once every socket has closed, which the close grace bounds.
      this.websocketServer.close(() => done());
    },
  });
  const heartbeat = setInterval(() => {
    for (const connection of connections) connection.heartbeat();
  }, limits.heartbeatMs).unref();
  // Connections opened with a token an account change ended close; one opened after the change stays.
  const stopRevocations = options.onRevoked((userId) => {
    for (const connection of connections) connection.recheck(userId);
  });
  app.addHook('onClose', async () => {
    clearInterval(heartbeat);
    stopRevocations();
  });

  const description: ChannelDescription = {
    protocol: 'websocket',
    authTimeoutMs: limits.authTimeoutMs,
    heartbeatMs: limits.heartbeatMs,
    replayMs: REPLAY_MS,
    maxMessageBytes: limits.maxMessageBytes,
    maxUnsentBytes: limits.maxUnsentBytes,
    positionsPerSecond: limits.positionsPerSecond,
  };
  app.route({
    method: 'GET',
    url: '/realtime',
    config: { public: true },
    schema: {
      tags: ['realtime'],
      summary: 'The realtime channel (WebSocket): ride updates, driver positions, offers and notifications as they happen',
      description:
        'Upgrade to a WebSocket (no token in the URL), then send `{"type":"auth","token":"<access token>","resumeAfter":<last seq seen, optional>}` ' +
        'within 5 s. The server answers `{"type":"ready","userId":…,"seq":…}` (or closes with 4401) and then sends `{type, seq, at, data}` messages: ' +
        '`ride.updated`, `ride.position`, `offer.created`, `offer.withdrawn`, `offer.expired`, `notification.created`. ' +
        'A driver sends `{"type":"position","lat":…,"lon":…}`; anyone may send `{"type":"ping"}`. ' +
        'Every message with an example, the close codes, resume and limits: docs/realtime.md in the repository.',
      response: { 101: { description: 'Switching Protocols: the WebSocket channel' }, 200: ChannelDescription },
    },
    wsHandler: (socket, request) => {
      const connection = new Connection(socket, options, limits, request.log);
      connections.add(connection);
      socket.on('close', () => connections.delete(connection));
      connection.start();
    },
    handler: async () => description,
  });
}

class Connection<M extends EventMap> {
  readonly #socket: WebSocket;
  readonly #options: RealtimeOptions<M>;
  readonly #limits: RealtimeLimits;
  readonly #log: FastifyBaseLogger;
  #user: Caller | undefined;
  #token = '';
  #detach: (() => void) | undefined;
  #timers: NodeJS.Timeout[] = [];
  #answeredPing = true;
  #positions = { second: 0, count: 0 };

  constructor(socket: WebSocket, options: RealtimeOptions<M>, limits: RealtimeLimits, log: FastifyBaseLogger) {
    this.#socket = socket;
    this.#options = options;
    this.#limits = limits;
    this.#log = log;
  }

  start(): void {
    const authTimer = setTimeout(() => this.close(CLOSE.UNAUTHORIZED, 'no auth message in time'), this.#limits.authTimeoutMs);
    this.#timers.push(authTimer);
    let authenticating = false;
    this.#socket.on('pong', () => (this.#answeredPing = true));
    this.#socket.on('message', (data, isBinary) => {
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
    this.#socket.close(code, reason);
    // The close frame waits behind what is unsent; a client that does not read never gets it.
    this.#timers.push(setTimeout(() => this.#socket.terminate(), this.#limits.closeGraceMs).unref());
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
    if (++this.#positions.count > this.#limits.positionsPerSecond) {
      return this.#reply({ type: 'error', code: 'RATE_LIMITED', message: `at most ${this.#limits.positionsPerSecond} positions per second` });
    }
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
