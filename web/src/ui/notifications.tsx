import { useCallback, useMemo, useState } from 'preact/hooks';
import type { Notification } from '../api/types.ts';
import { useApi } from './app-context.tsx';
import { ErrorNotice } from './components.tsx';
import { dateTimeOf } from './format.ts';
import { useAction } from './use-action.ts';
import { t } from '../i18n/i18n.ts';

export interface Notifications {
  items: Notification[];
  unread: number;
  nextCursor: string | null;
  /** Re-reads the newest page (at start and after a resync). */
  reload: () => Promise<void>;
  /** A notification.created message from the realtime channel. */
  received: (notification: Notification) => void;
  more: () => Promise<void>;
  markRead: (id: number) => Promise<void>;
  markAllRead: () => Promise<void>;
}

/** The user's in-app notifications and their unread count, kept live by the realtime channel. */
export function useNotifications(): Notifications {
  const api = useApi();
  const [items, setItems] = useState<Notification[]>([]);
  const [unread, setUnread] = useState(0);
  const [nextCursor, setNextCursor] = useState<string | null>(null);

  const reload = useCallback(async () => {
    const page = await api.notifications.history();
    setItems(page.notifications);
    setUnread(page.unreadCount);
    setNextCursor(page.nextCursor);
  }, [api]);

  return useMemo(
    () => ({
      items,
      unread,
      nextCursor,
      reload,
      received(notification: Notification) {
        setItems((list) => (list.some((item) => item.id === notification.id) ? list : [notification, ...list]));
        if (!notification.read) setUnread((count) => count + 1);
      },
      async more() {
        if (!nextCursor) return;
        const page = await api.notifications.history(nextCursor);
        setItems((list) => [...list, ...page.notifications]);
        setNextCursor(page.nextCursor);
      },
      async markRead(id: number) {
        await api.notifications.markRead(id);
        setItems((list) => list.map((item) => (item.id === id ? { ...item, read: true } : item)));
        setUnread((count) => Math.max(0, count - 1));
      },
      async markAllRead() {
        await api.notifications.markAllRead();
        setItems((list) => list.map((item) => ({ ...item, read: true })));
        setUnread(0);
      },
    }),
    [api, items, unread, nextCursor, reload],
  );
}

export function NotificationsScreen({ notifications }: { notifications: Notifications }) {
  const { items, unread, nextCursor } = notifications;
  const markAll = useAction(notifications.markAllRead);
  const markOne = useAction(notifications.markRead);
  const more = useAction(notifications.more);
  return (
    <section class="stack" aria-labelledby="notifications-title">
      <div class="row spread">
        <h2 id="notifications-title">{t('shell.notifications')}</h2>
        <button type="button" class="secondary" disabled={unread === 0 || markAll.busy} onClick={() => void markAll.run()}>
          {t('notifications.markAll')}
        </button>
      </div>
      <ErrorNotice message={markAll.error || markOne.error || more.error} />
      {items.length === 0 && <p class="muted">{t('notifications.none')}</p>}
      <ul class="list">
        {items.map((item) => (
          <li key={item.id} class="card stack" data-read={item.read}>
            <div class="row spread">
              <h3>
                {item.read ? '' : <span class="visually-hidden">{t('notifications.unread')} </span>}
                {item.title}
              </h3>
              <span class="muted">{dateTimeOf(item.createdAt)}</span>
            </div>
            <p class="flush">{item.message}</p>
            {!item.read && (
              <button type="button" class="secondary" onClick={() => void markOne.run(item.id)}>
                {t('notifications.markRead')}
              </button>
            )}
          </li>
        ))}
      </ul>
      {nextCursor && (
        <button type="button" class="secondary" disabled={more.busy} onClick={() => void more.run()}>
          {t('notifications.older')}
        </button>
      )}
    </section>
  );
}
