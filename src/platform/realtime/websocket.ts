import websocket from '@fastify/websocket';
import type { FastifyInstance } from 'fastify';
import { Type, type Static } from 'typebox';
import type { AuthUser } from '../auth/roles.ts';
import { systemClock, type Clock } from '../clock.ts';
import type { EventMap } from '../event-bus.ts';
import type { ClientMessageDispatcher } from './client-messages.ts';
import { CLOSE, Connection, type Caller } from './connection.ts';
import { REPLAY_BYTES, REPLAY_MESSAGES, REPLAY_MS, type RealtimeHub } from './hub.ts';
import { REALTIME_LIMITS, type RealtimeLimits } from './limits.ts';

export interface RealtimeOptions<M extends EventMap> {
  hub: RealtimeHub<M>;
  /** Verifies an access token (a refresh token or anything else fails with a 401). */
  authenticate(token: string): Promise<Caller>;
  /** The message types the modules take from clients (each module registers its own), besides `auth` and `ping`. */
  messages: ClientMessageDispatcher;
  /** Positions one driver may send per second, all connections and REST together (enforced where positions are taken). */
  positionsPerSecond: number;
  /** An authenticated connection ended from the client's side (closed, or dead to heartbeats), not by this server. */
  onLost?(user: AuthUser): void;
  /** Calls back with each user whose earlier tokens an account change ended; returns how to stop. */
  onRevoked(listener: (userId: number) => void): () => void;
  /** Where the message budget's seconds come from; the system clock otherwise. */
  clock?: Clock;
  limits?: Partial<RealtimeLimits>;
}

const ms = (description: string) => Type.Integer({ minimum: 0, description });
const ChannelDescription = Type.Object(
  {
    protocol: Type.Literal('websocket'),
    authTimeoutMs: ms('send `{"type":"auth",…}` within this time after connecting'),
    heartbeatMs: ms('the server pings this often; answer pings (WebSocket clients do by themselves)'),
    replayMs: ms('messages are kept this long for `resumeAfter`, within replayMessages and replayBytes'),
    replayMessages: Type.Integer({ description: 'at most this many of a user’s latest messages are kept for `resumeAfter`' }),
    replayBytes: Type.Integer({ description: 'and at most this many bytes of them' }),
    maxMessageBytes: Type.Integer({ description: 'the largest message a client may send' }),
    maxUnsentBytes: Type.Integer({ description: 'a client with more than this waiting to be read is closed with 4429' }),
    messagesPerSecond: Type.Integer({ description: 'messages of any type a connection may send per second; the rest of that second’s are dropped' }),
    floodMessagesPerSecond: Type.Integer({ description: 'a connection that sends more than this in one second is closed with 4408' }),
    connectionsPerUser: Type.Integer({ description: 'open connections of one user on one instance; another one closes the oldest with 4409' }),
    positionsPerSecond: Type.Integer({ description: 'positions one driver may send per second, all connections and REST together' }),
  },
  { description: 'Without an Upgrade header: the parameters of the channel' },
);
type ChannelDescription = Static<typeof ChannelDescription>;

/**
 * GET /realtime: one WebSocket per app. The first message authenticates (a token never goes in a
 * URL); then the user's messages flow with their sequence numbers, a reconnecting client resumes
 * after the last one it saw, and a driver's app sends its positions. Heartbeats end dead
 * connections, a client that does not read or sends too much is cut off, and a stopping server
 * says "going away".
 */
export async function realtimeRoutes<M extends EventMap>(app: FastifyInstance, options: RealtimeOptions<M>): Promise<void> {
  const limits = { ...REALTIME_LIMITS, ...options.limits };
  const connections = new Set<Connection<M>>();
  const byUser = new Map<number, Set<Connection<M>>>();
  await app.register(websocket, {
    options: {
      maxPayload: limits.maxMessageBytes,
      // One frame's message per turn of the event loop, so a client sending thousands of small frames
      // at once takes turns with every other request instead of holding the loop until they are read.
      allowSynchronousEvents: false,
      // Pings count against the sender's budget: the connection answers them itself (connection.ts).
      autoPong: false,
    },
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
    for (const connection of byUser.get(userId) ?? []) connection.recheck(userId);
  });
  app.addHook('onClose', async () => {
    clearInterval(heartbeat);
    stopRevocations();
  });

  // A user's connections in the order they became ready: past the limit, the oldest goes.
  const onReady = (connection: Connection<M>) => {
    const userId = connection.userId!;
    let own = byUser.get(userId);
    if (!own) byUser.set(userId, (own = new Set()));
    own.add(connection);
    if (own.size > limits.connectionsPerUser) {
      const oldest = own.values().next().value!;
      own.delete(oldest);
      oldest.close(CLOSE.TOO_MANY_CONNECTIONS, `more than ${limits.connectionsPerUser} connections of this user; this was the oldest`);
    }
  };
  const onClosed = (connection: Connection<M>) => {
    connections.delete(connection);
    const userId = connection.userId;
    const own = userId === undefined ? undefined : byUser.get(userId);
    if (own?.delete(connection) && own.size === 0) byUser.delete(userId!);
  };
  const connectionOptions = { ...options, clock: options.clock ?? systemClock, onReady, onClosed };

  const description: ChannelDescription = {
    protocol: 'websocket',
    authTimeoutMs: limits.authTimeoutMs,
    heartbeatMs: limits.heartbeatMs,
    replayMs: REPLAY_MS,
    replayMessages: REPLAY_MESSAGES,
    replayBytes: REPLAY_BYTES,
    maxMessageBytes: limits.maxMessageBytes,
    maxUnsentBytes: limits.maxUnsentBytes,
    messagesPerSecond: limits.messagesPerSecond,
    floodMessagesPerSecond: limits.floodMessagesPerSecond,
    connectionsPerUser: limits.connectionsPerUser,
    positionsPerSecond: options.positionsPerSecond,
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
        '`ride.updated`, `ride.position`, `offer.created`, `offer.withdrawn`, `offer.expired`, `notification.created`, and to operators `incident.created`, `incident.updated`. ' +
        `Anyone may send \`{"type":"ping"}\`; the modules take ${clientMessages(options.messages)}. ` +
        'Every message with an example, the close codes, resume and limits: docs/realtime.md in the repository.',
      response: { 101: { description: 'Switching Protocols: the WebSocket channel' }, 200: ChannelDescription },
    },
    wsHandler: (socket, request) => {
      const connection = new Connection(socket, connectionOptions, limits, request.log);
      connections.add(connection);
      connection.start();
    },
    handler: async () => description,
  });
}

/** The registered client messages with who may send them, for the OpenAPI description: "`position` (DRIVER)". */
function clientMessages(messages: ClientMessageDispatcher): string {
  const named = messages.types.map((type) => `\`{"type":"${type}",…}\` (${messages.rolesOf(type).join(', ')})`);
  return named.length === 0 ? 'no other message' : named.join(', ');
}
