import type { ServerResponse } from 'node:http';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { EventMap } from '../event-bus.ts';
import type { RealtimeHub, UserMessage } from './hub.ts';
import { REALTIME_LIMITS, type RealtimeLimits } from './limits.ts';

/**
 * Server-sent events over the realtime hub: each message of the chosen types is an event whose id
 * is the user's sequence number, so a browser that reconnects with Last-Event-ID gets what it missed.
 */
export class SseStreams<M extends EventMap> {
  readonly #hub: RealtimeHub<M>;
  readonly #limits: RealtimeLimits;
  /** Open streams and whose they are. */
  readonly #open = new Map<ServerResponse, number>();

  constructor(hub: RealtimeHub<M>, limits: Partial<RealtimeLimits> = {}) {
    this.#hub = hub;
    this.#limits = { ...REALTIME_LIMITS, ...limits };
  }

  async open(request: FastifyRequest, reply: FastifyReply, userId: number, event: { type: keyof M & string; name: string }): Promise<void> {
    const lastEventId = Number(request.headers['last-event-id']);
    const resumeAfter = Number.isSafeInteger(lastEventId) && lastEventId >= 0 ? lastEventId : undefined;
    const stream = reply.raw;
    const write = (message: UserMessage<M>) => {
      if (message.type !== event.type) return;
      stream.write(`id: ${message.seq}\nevent: ${event.name}\ndata: ${JSON.stringify(message.data)}\n\n`);
      // A client that stopped reading is cut off; it reconnects with Last-Event-ID.
      if (stream.writableLength > this.#limits.maxUnsentBytes) stream.destroy();
    };
    // Live messages wait until the head and the replay are out (attaching may take a round trip).
    const waiting: Array<UserMessage<M>> = [];
    let live = false;
    // Messages that may not come end the stream (the browser reconnects with Last-Event-ID); numbers
    // skipped after an outage are a resync event, whose id is where to carry on from.
    const attachment = await this.#hub.attach(userId, (message) => (live ? write(message) : waiting.push(message)), resumeAfter, (interruption) => {
      if (interruption.kind === 'unavailable') stream.end();
      else stream.write(`id: ${interruption.seq}\nevent: resync\ndata: {}\n\n`);
    });
    reply.hijack();
    // The client may have gone while attaching: nobody would ever detach.
    if (request.raw.socket.destroyed) return attachment.detach();
    stream.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-transform',
      'x-accel-buffering': 'no',
      'x-request-id': request.id,
    });
    stream.write('retry: 5000\n\n');
    // Too old to replay: the client must re-read its notifications, as on a first connect.
    if (attachment.resync) stream.write('event: resync\ndata: {}\n\n');
    for (const message of [...attachment.replay, ...waiting]) write(message);
    live = true;
    const heartbeat = setInterval(() => stream.write(': keep-alive\n\n'), this.#limits.heartbeatMs);
    // Like a socket, a stream lives no longer than the token that opened it: the browser reconnects
    // with the token it holds, which is refused once expired.
    const expiry = setTimeout(() => stream.end(), Math.max(0, request.tokenExpiresAt - Date.now()));
    this.#open.set(stream, userId);
    stream.on('close', () => {
      attachment.detach();
      clearInterval(heartbeat);
      clearTimeout(expiry);
      this.#open.delete(stream);
    });
  }

  /**
   * Ends the user's streams when an account change ended their tokens: the browser reconnects with
   * the token it holds, which is refused if it was one of them.
   */
  endFor(userId: number): void {
    for (const [stream, owner] of this.#open) if (owner === userId) stream.end();
  }

  /** Ends every stream; clients reconnect (to another instance) with Last-Event-ID. */
  closeAll(): void {
    for (const stream of this.#open.keys()) stream.end();
  }
}
