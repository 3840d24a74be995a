import { EventEmitter } from 'node:events';
import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';

export type EventHandler = (message: unknown) => void;

/**
 * Publish/subscribe between the parts of the service. In-process by default; over Redis an event
 * published on one instance reaches the subscribers of every instance. Delivery is best effort:
 * what must not be lost is in the database first.
 */
export interface EventBus {
  publish(channel: string, message: unknown): Promise<void>;
  subscribe(channel: string, handler: EventHandler): Promise<void>;
  close(): Promise<void>;
}

export class MemoryEventBus implements EventBus {
  readonly #emitter = new EventEmitter().setMaxListeners(0);

  async publish(channel: string, message: unknown): Promise<void> {
    this.#emitter.emit(channel, message);
  }

  async subscribe(channel: string, handler: EventHandler): Promise<void> {
    this.#emitter.on(channel, handler);
  }

  async close(): Promise<void> {
    this.#emitter.removeAllListeners();
  }
}

export class RedisEventBus implements EventBus {
  readonly #publisher: Redis;
  readonly #subscriber: Redis;
  readonly #prefix: string;
  readonly #handlers = new Map<string, EventHandler[]>();

  /** `subscriber` must be a connection of its own: Redis reserves it for subscriptions. */
  constructor(publisher: Redis, subscriber: Redis, prefix: string, log: FastifyBaseLogger) {
    this.#publisher = publisher;
    this.#subscriber = subscriber;
    this.#prefix = prefix;
    subscriber.on('message', (channel: string, text: string) => {
      const handlers = this.#handlers.get(channel.slice(prefix.length)) ?? [];
      let message: unknown;
      try {
        message = JSON.parse(text);
      } catch (error) {
        log.warn({ err: error, channel }, 'unreadable event ignored');
        return;
      }
      for (const handler of handlers) handler(message);
    });
  }

  async publish(channel: string, message: unknown): Promise<void> {
    await this.#publisher.publish(this.#prefix + channel, JSON.stringify(message));
  }

  async subscribe(channel: string, handler: EventHandler): Promise<void> {
    const handlers = this.#handlers.get(channel);
    if (handlers) return void handlers.push(handler);
    this.#handlers.set(channel, [handler]);
    await this.#subscriber.subscribe(this.#prefix + channel);
  }

  async close(): Promise<void> {
    this.#handlers.clear();
  }
}
