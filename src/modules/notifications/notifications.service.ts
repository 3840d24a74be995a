import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/database.ts';
import type { Tx } from '../../db/transaction.ts';
import { toIso, toIsoOrNull, type Clock } from '../../platform/clock.ts';
import type { EventBus } from '../../platform/event-bus.ts';
import { notFound } from '../../platform/errors.ts';
import { takePage, type Page } from '../../platform/pagination.ts';
import * as repository from './notifications.repository.ts';
import type { Notification } from './notifications.schemas.ts';

export interface NewNotification {
  userId: number;
  rideId?: number | null;
  eventType: string;
  title: string;
  message: string;
}

export type NotificationListener = (notification: Notification) => void;

const CHANNEL = 'notifications';

export const MARKED_READ = 'Notification marked as read.';
export const ALL_MARKED_READ = 'All notifications marked as read.';

/**
 * In-app notifications. Other modules call `record` inside the transaction of the change that
 * causes them; once it commits, the notification is published so live streams on any instance see it.
 */
export class NotificationsService {
  readonly #db: Kysely<Database>;
  readonly #clock: Clock;
  readonly #bus: EventBus;
  readonly #log: FastifyBaseLogger;
  readonly #listeners = new Map<number, Set<NotificationListener>>();

  constructor(db: Kysely<Database>, clock: Clock, bus: EventBus, log: FastifyBaseLogger) {
    this.#db = db;
    this.#clock = clock;
    this.#bus = bus;
    this.#log = log;
  }

  /** Starts relaying published notifications to this instance's live streams. */
  listen(): Promise<void> {
    return this.#bus.subscribe(CHANNEL, (message) => {
      const notification = message as Notification;
      for (const listener of this.#listeners.get(notification.userId) ?? []) listener(notification);
    });
  }

  /** Calls `listener` with each new notification of the user until the returned function is called. */
  follow(userId: number, listener: NotificationListener): () => void {
    let listeners = this.#listeners.get(userId);
    if (!listeners) this.#listeners.set(userId, (listeners = new Set()));
    listeners.add(listener);
    return () => {
      listeners.delete(listener);
      if (listeners.size === 0) this.#listeners.delete(userId);
    };
  }

  async record(tx: Tx, items: readonly NewNotification[]): Promise<Notification[]> {
    if (items.length === 0) return [];
    const now = this.#clock.now();
    const rows = await repository.insertNotifications(
      tx.db,
      items.map((item) => ({
        user_id: item.userId,
        ride_id: item.rideId ?? null,
        title: item.title.slice(0, 120),
        message: item.message.slice(0, 800),
        channel: 'in_app',
        event_type: item.eventType,
        read: 0,
        status: 'delivered',
        created_at: now,
        delivered_at: now,
      })),
    );
    const notifications = rows.map(toNotification);
    tx.afterCommit(() => {
      for (const notification of notifications) {
        this.#bus.publish(CHANNEL, notification).catch((error: unknown) => {
          this.#log.warn({ err: error }, 'notification saved but not published to live streams');
        });
      }
    });
    return notifications;
  }

  async history(userId: number, page: Page): Promise<{ notifications: Notification[]; unreadCount: number; nextCursor: string | null }> {
    const [rows, unreadCount] = await Promise.all([
      repository.listForUser(this.#db, userId, page),
      repository.countUnread(this.#db, userId),
    ]);
    const { items, nextCursor } = takePage(rows, page.limit);
    return { notifications: items.map(toNotification), unreadCount, nextCursor };
  }

  async markRead(userId: number, id: number): Promise<string> {
    if (!(await repository.markRead(this.#db, userId, id))) throw notFound('Notification not found');
    return MARKED_READ;
  }

  async markAllRead(userId: number): Promise<string> {
    await repository.markAllRead(this.#db, userId);
    return ALL_MARKED_READ;
  }
}

function toNotification(row: repository.NotificationRow): Notification {
  return {
    id: row.id,
    userId: row.user_id,
    rideId: row.ride_id,
    title: row.title,
    message: row.message,
    channel: row.channel,
    eventType: row.event_type,
    read: row.read === 1,
    createdAt: toIso(row.created_at),
    deliveredAt: toIsoOrNull(row.delivered_at),
    status: row.status,
  };
}
