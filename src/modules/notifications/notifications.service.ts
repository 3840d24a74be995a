import type { FastifyBaseLogger } from 'fastify';
import type { Insertable } from 'kysely';
import type { Db, NotificationsTable } from '../../db/database.ts';
import type { Transactions, Tx } from '../../db/transaction.ts';
import type { DomainEventsDispatcher, UserHub } from '../../events.ts';
import { toIso, toIsoOrNull, type Clock } from '../../platform/clock.ts';
import { notFound } from '../../platform/errors.ts';
import type { NoticeText, Texts } from '../../platform/i18n/texts.ts';
import { takePage, type Page } from '../../platform/pagination.ts';
import type { Language, NotificationEvent } from '../../platform/vocabulary.ts';
import type { SettingsService } from '../settings/settings.service.ts';
import * as repository from './notifications.repository.ts';
import type { Notification } from './notifications.schemas.ts';

export interface NewNotification {
  userId: number;
  rideId?: number | null;
  eventType: NotificationEvent;
  /** What it says, as a catalogue name and values: each reader gets it in their language. */
  text: NoticeText;
}

export const MARKED_READ = 'Notification marked as read.';
export const ALL_MARKED_READ = 'All notifications marked as read.';

/**
 * In-app notifications. Other modules call `record` inside the transaction of the change that
 * causes them; once it commits, each one reaches its user's live connections on any instance.
 * A notification keeps its text as a catalogue name and values, and is shown in its reader's
 * language when it is listed or sent (the language from the settings module's cache, so writing
 * one costs no settings read); its English title and message stay in the row for operators and
 * for notifications written before texts had names.
 */
export class NotificationsService {
  readonly #db: Db;
  readonly #transactions: Transactions;
  readonly #clock: Clock;
  readonly #hub: UserHub;
  readonly #log: FastifyBaseLogger;
  readonly #events: Pick<DomainEventsDispatcher, 'emitted'> | undefined;
  readonly #texts: Texts;
  readonly #languages: Pick<SettingsService, 'languageOf'>;
  /** Each user's announcements under way, in the order their units committed. */
  readonly #sending = new Map<number, Promise<void>>();

  /** `events` hears of each notification once committed, in its user's language (the push module reaches apps that are closed). */
  constructor(deps: {
    db: Db;
    transactions: Transactions;
    clock: Clock;
    hub: UserHub;
    log: FastifyBaseLogger;
    texts: Texts;
    languages: Pick<SettingsService, 'languageOf'>;
    events?: Pick<DomainEventsDispatcher, 'emitted'>;
  }) {
    this.#db = deps.db;
    this.#transactions = deps.transactions;
    this.#clock = deps.clock;
    this.#hub = deps.hub;
    this.#log = deps.log;
    this.#texts = deps.texts;
    this.#languages = deps.languages;
    this.#events = deps.events;
  }

  /** Saves the notifications in the caller's unit; returns their ids. */
  async record(tx: Tx, items: readonly NewNotification[]): Promise<number[]> {
    if (items.length === 0) return [];
    const rows = await repository.insertNotifications(tx.db, items.map((item) => this.row(item)));
    this.announce(tx, rows);
    return rows.map((row) => row.id);
  }

  /** The row of a new notification, for a statement that inserts it together with its cause. */
  row(item: NewNotification): Insertable<NotificationsTable> & { ride_id: number | null } {
    const now = this.#clock.now();
    const english = this.#texts.notice('en', item.text);
    return {
      user_id: item.userId,
      ride_id: item.rideId ?? null,
      title: english.title.slice(0, TITLE_MAX),
      message: english.message.slice(0, MESSAGE_MAX),
      text_name: item.text.name,
      text_values: JSON.stringify(item.text.values),
      channel: 'in_app',
      event_type: item.eventType,
      read: 0,
      status: 'delivered',
      created_at: now,
      delivered_at: now,
    };
  }

  /** A row from `row()` once such a statement saved it with this id. */
  saved(row: ReturnType<NotificationsService['row']>, id: number): repository.NotificationRow {
    return { ...row, id } as repository.NotificationRow;
  }

  /**
   * Sends the notifications, each in its user's language, to their live connections once the unit has
   * committed. A user's go one after another: a language read from the database must not let a later
   * notice of theirs (arriving) overtake an earlier one (accepted). Other users' do not wait on them.
   */
  announce(tx: Tx, rows: readonly repository.NotificationRow[]): void {
    tx.afterCommit(() => {
      for (const userId of new Set(rows.map((row) => row.user_id))) {
        const sent = (this.#sending.get(userId) ?? Promise.resolve())
          .then(() => this.#send(userId, rows.filter((row) => row.user_id === userId)))
          .catch((error: unknown) => this.#log.error({ err: error, userId }, 'notifications saved but not announced'));
        this.#sending.set(userId, sent);
        void sent.finally(() => {
          if (this.#sending.get(userId) === sent) this.#sending.delete(userId);
        });
      }
    });
  }

  async #send(userId: number, rows: readonly repository.NotificationRow[]): Promise<void> {
    const language = await this.#languages.languageOf(userId).catch((error: unknown) => {
      this.#log.warn({ err: error, userId }, 'language not read; notification sent in English');
      return 'en' as const;
    });
    for (const row of rows) {
      const notification = this.#view(row, language);
      void this.#events?.emitted('notification.created', notification);
      if (!this.#hub.reaches(userId)) continue;
      this.#hub.send(userId, 'notification.created', notification).catch((error: unknown) => {
        this.#log.warn({ err: error }, 'notification saved but not sent live');
      });
    }
  }

  async history(userId: number, page: Page): Promise<{ notifications: Notification[]; unreadCount: number; nextCursor: string | null }> {
    const [rows, unreadCount, language] = await Promise.all([repository.listForUser(this.#db, userId, page), repository.countUnread(this.#db, userId), this.#languages.languageOf(userId)]);
    const { items, nextCursor } = takePage(rows, page.limit);
    return { notifications: items.map((row) => this.#view(row, language)), unreadCount, nextCursor };
  }

  async markRead(userId: number, id: number): Promise<string> {
    if (!(await this.#transactions.run((tx) => repository.markRead(tx.db, userId, id)))) throw notFound('Notification not found');
    return MARKED_READ;
  }

  async markAllRead(userId: number): Promise<string> {
    await this.#transactions.run((tx) => repository.markAllRead(tx.db, userId));
    return ALL_MARKED_READ;
  }

  /** The notification as the API shows it, in `language`; a row written before texts had names keeps its English words. */
  #view(row: repository.NotificationRow, language: Language): Notification {
    let words: { title: string; message: string } = row;
    if (row.text_name !== null) {
      try {
        words = this.#texts.notice(language, { name: row.text_name as NoticeText['name'], values: JSON.parse(row.text_values ?? '{}') as NoticeText['values'] });
      } catch (error) {
        // A text the catalogue no longer renders (renamed, or its values changed shape): the stored English still reads.
        this.#log.warn({ err: error, notificationId: row.id, text: row.text_name }, 'notification text not rendered; shown in English as written');
      }
    }
    return toNotification(row, { title: words.title.slice(0, TITLE_MAX), message: words.message.slice(0, MESSAGE_MAX) });
  }
}

const TITLE_MAX = 120;
const MESSAGE_MAX = 800;

function toNotification(row: repository.NotificationRow, words: { title: string; message: string }): Notification {
  return {
    id: row.id,
    userId: row.user_id,
    rideId: row.ride_id,
    ...words,
    channel: row.channel,
    eventType: row.event_type,
    read: row.read === 1,
    createdAt: toIso(row.created_at),
    deliveredAt: toIsoOrNull(row.delivered_at),
    status: row.status,
  };
}
