import type { ComponentChildren } from 'preact';
import type { ChannelState } from '../../../src/contract/realtime-client.ts';
import { t, type MessageKey } from '../i18n/i18n.ts';
import { OfflineNotice } from './offline.tsx';

export interface NavLink {
  route: string;
  label: string;
}

interface Props {
  title: string;
  route: string;
  links: NavLink[];
  /** The unread notifications (apps without notifications leave it out). */
  unread?: number;
  channel?: ChannelState;
  /** Use a wide screen's width (the operator console's maps and lists); the phone apps keep a column. */
  wide?: boolean;
  onSignOut: () => void;
  children: ComponentChildren;
}

const CHANNEL_TEXT = { connecting: 'shell.connecting', live: 'shell.live', offline: 'shell.offline' } as const satisfies Record<ChannelState, MessageKey>;

/** The frame of a signed-in app: its name, the live state, navigation with the unread count, sign-out. */
export function Shell({ title, route, links, unread, channel, wide, onSignOut, children }: Props) {
  return (
    <div class={wide ? 'shell wide' : 'shell'}>
      <header class="top">
        <h1>{title}</h1>
        {channel && (
          <span class="live" role="status">
            {t(CHANNEL_TEXT[channel])}
          </span>
        )}
        <button type="button" class="link" onClick={onSignOut}>
          {t('shell.signOut')}
        </button>
        <nav aria-label={t('shell.mainNav')}>
          {links.map((link) => (
            <a key={link.route} href={`#${link.route}`} aria-current={route === link.route ? 'page' : undefined}>
              {link.label}
            </a>
          ))}
          {unread !== undefined && (
            <a href="#/notifications" aria-current={route === '/notifications' ? 'page' : undefined}>
              {t('shell.notifications')}{' '}
              <span class="badge">
                {unread}
                <span class="visually-hidden"> {t('shell.unread')}</span>
              </span>
            </a>
          )}
        </nav>
      </header>
      <main id="main">
        <OfflineNotice />
        {children}
      </main>
    </div>
  );
}
