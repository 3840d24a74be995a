import type { FastifyBaseLogger } from 'fastify';
import type { Insertable } from 'kysely';
import type { Db, NotificationsTable } from '../../db/database.ts';
import type { Transactions, Tx } from '../../db/transaction.ts';
import type { DomainEventsDispatcher, UserHub } from '../../events.ts';
import { toIso, toIsoOrNull, type Clock } from '../../platform/clock.ts';
import { notFound } from '../../platform/errors.ts';
import { takePage, type Page } from '../../platform/pagination.ts';
import type { NotificationEvent } from '../../platform/vocabulary.ts';
import * as repository from './notifications.repository.ts';
import type { Notification } from './notifications.schemas.ts';

export interface NewNotification {
  userId: number;
  rideId?: number | null;
  eventType: NotificationEvent;
  title: string;
  message: string;
}

export const MARKED_READ = 'Notification marked as read.';
export const ALL_MARKED_READ = 'All notifications marked as read.';

/**
 * In-app notifications. Other modules call `record` inside the transaction of the change that
 * causes them; once it commits, each one reaches its user's live connections on any instance.
 */
export class NotificationsService {
  readonly #db: Db;
  readonly #transactions: Transactions;
  readonly #clock: Clock;
  readonly #hub: UserHub;
  readonly #log: FastifyBaseLogger;
  readonly #events: Pick<DomainEventsDispatcher, 'emitted'> | undefined;

  /** `events` hears of each notification once committed (the push module reaches apps that are closed). */
  constructor(deps: { db: Db; transactions: Transactions; clock: Clock; hub: UserHub; log: FastifyBaseLogger; events?: Pick<DomainEventsDispatcher, 'emitted'> }) {
    this.#db = deps.db;
    this.#transactions = deps.transactions;
    this.#clock = deps.clock;
    this.#hub = deps.hub;
    this.#log = deps.log;
    this.#events = deps.events;
  }

  async record(tx: Tx, items: readonly NewNotification[]): Promise<Notification[]> {
    if (items.length === 0) return [];
    const rows = await repository.insertNotifications(tx.db, items.map((item) => this.row(item)));
    const notifications = rows.map(toNotification);
    this.announce(tx, notifications);
    return notifications;
  }

  /** The row of a new notification, for a statement that inserts it together with its cause. */
  row(item: NewNotification): Insertable<NotificationsTable> & { ride_id: number | null } {
    const now = this.#clock.now();
    return {
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
    };
  }

  /** A row from `row()` once such a statement saved it with this id, as the API shows it. */
  saved(row: ReturnType<NotificationsService['row']>, id: number): Notification {
    return toNotification({ ...row, id } as repository.NotificationRow);
  }

  /** Sends the notifications to their users' live connections once the unit has committed. */
  announce(tx: Tx, notifications: readonly Notification[]): void {
    tx.afterCommit(() => {
      for (const notification of notifications) {
        void this.#events?.emitted('notification.created', notification);
        if (!this.#hub.reaches(notification.userId)) continue;
        this.#hub.send(notification.userId, 'notification.created', notification).catch((error: unknown) => {
          this.#log.warn({ err: error }, 'notification saved but not sent live');
        });
      }
    });
  }

  async history(userId: number, page: Page): Promise<{ notifications: Notification[]; unreadCount: number; nextCursor: string | null }> {
    const [rows, unreadCount] = await Promise.all([repository.listForUser(this.#db, userId, page), repository.countUnread(this.#db, userId)]);
    const { items, nextCursor } = takePage(rows, page.limit);
    return { notifications: items.map(toNotification), unreadCount, nextCursor };
  }

  async markRead(userId: number, id: number): Promise<string> {
    if (!(await this.#transactions.run((tx) => repository.markRead(tx.db, userId, id)))) throw notFound('Notification not found');
    return MARKED_READ;
  }

  async markAllRead(userId: number): Promise<string> {
    await this.#transactions.run((tx) => repository.markAllRead(tx.db, userId));
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
