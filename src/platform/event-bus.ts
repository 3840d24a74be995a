import { EventEmitter } from 'node:events';
import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';

/** Event names and the payload each one carries; src/events.ts declares the service's map. */
export type EventMap = Record<string, unknown>;

export type EventHandler<T> = (message: T) => void;

/**
 * Publish/subscribe between the parts of the service. In-process by default; over Redis an event
 * published on one instance reaches the subscribers of every instance. Delivery is best effort:
 * what must not be lost is in the database first. Payloads cross Redis as JSON.
 */
export interface EventBus<M extends EventMap> {
  publish<K extends keyof M & string>(channel: K, message: M[K]): Promise<void>;
  subscribe<K extends keyof M & string>(channel: K, handler: EventHandler<M[K]>): Promise<void>;
  close(): Promise<void>;
}

export class MemoryEventBus<M extends EventMap> implements EventBus<M> {
  readonly #emitter = new EventEmitter().setMaxListeners(0);

  async publish<K extends keyof M & string>(channel: K, message: M[K]): Promise<void> {
    this.#emitter.emit(channel, message);
  }

  async subscribe<K extends keyof M & string>(channel: K, handler: EventHandler<M[K]>): Promise<void> {
    this.#emitter.on(channel, handler);
  }

  async close(): Promise<void> {
    this.#emitter.removeAllListeners();
  }
}

export class RedisEventBus<M extends EventMap> implements EventBus<M> {
  readonly #publisher: Redis;
  readonly #subscriber: Redis;
  readonly #prefix: string;
  readonly #handlers = new Map<string, Array<EventHandler<never>>>();

  /** `subscriber` must be a connection of its own: Redis reserves it for subscriptions. */
  constructor(publisher: Redis, subscriber: Redis, prefix: string, log: FastifyBaseLogger) {
    this.#publisher = publisher;
    this.#subscriber = subscriber;
    this.#prefix = prefix;
    subscriber.on('message', (channel: string, text: string) => {
      const handlers = this.#handlers.get(channel.slice(prefix.length));
      // The connection also carries channels of others (the realtime hub's): those are not parsed here.
      if (!handlers) return;
      let message: never;
      try {
        message = JSON.parse(text) as never;
      } catch (error) {
        log.warn({ err: error, channel }, 'unreadable event ignored');
        return;
      }
      for (const handler of handlers) handler(message);
    });
  }

  async publish<K extends keyof M & string>(channel: K, message: M[K]): Promise<void> {
    await this.#publisher.publish(this.#prefix + channel, JSON.stringify(message));
  }

  async subscribe<K extends keyof M & string>(channel: K, handler: EventHandler<M[K]>): Promise<void> {
    const handlers = this.#handlers.get(channel);
    if (handlers) return void handlers.push(handler);
    this.#handlers.set(channel, [handler]);
    await this.#subscriber.subscribe(this.#prefix + channel);
  }

  async close(): Promise<void> {
    this.#handlers.clear();
  }
}
