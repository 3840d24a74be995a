import type { ServerResponse } from 'node:http';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { EventMap } from '../event-bus.ts';
import type { RealtimeHub, UserMessage } from './hub.ts';

const HEARTBEAT_MS = 25_000;
/** Bytes a stream may hold unsent before a client that does not read is cut off. */
const MAX_UNSENT_BYTES = 1024 * 1024;

/**
 * Server-sent events over the realtime hub: each message of the chosen types is an event whose id
 * is the user's sequence number, so a browser that reconnects with Last-Event-ID gets what it missed.
 */
export class SseStreams<M extends EventMap> {
  readonly #hub: RealtimeHub<M>;
  readonly #open = new Set<ServerResponse>();

  constructor(hub: RealtimeHub<M>) {
    this.#hub = hub;
  }

  async open(request: FastifyRequest, reply: FastifyReply, userId: number, event: { type: keyof M & string; name: string }): Promise<void> {
    const lastEventId = Number(request.headers['last-event-id']);
    const resumeAfter = Number.isSafeInteger(lastEventId) && lastEventId >= 0 ? lastEventId : undefined;
    const stream = reply.raw;
    const write = (message: UserMessage<M>) => {
      if (message.type !== event.type) return;
      stream.write(`id: ${message.seq}\nevent: ${event.name}\ndata: ${JSON.stringify(message.data)}\n\n`);
      if (stream.writableLength > MAX_UNSENT_BYTES) stream.destroy();
    };
    const attachment = await this.#hub.attach(userId, write, resumeAfter);
    reply.hijack();
    stream.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-transform',
      'x-accel-buffering': 'no',
      'x-request-id': request.id,
    });
    stream.write('retry: 5000\n\n');
    // Too old to replay: the client must re-read its notifications, as on a first connect.
    if (attachment.replay === 'resync') stream.write('event: resync\ndata: {}\n\n');
    else for (const message of attachment.replay) write(message);
    const heartbeat = setInterval(() => stream.write(': keep-alive\n\n'), HEARTBEAT_MS);
    this.#open.add(stream);
    stream.on('close', () => {
      attachment.detach();
      clearInterval(heartbeat);
      this.#open.delete(stream);
    });
  }

  /** Ends every stream; clients reconnect (to another instance) with Last-Event-ID. */
  closeAll(): void {
    for (const stream of this.#open) stream.end();
  }
}
