// What the apps' service worker does with a push message (docs/push.md): the worker (web/src/sw/push.ts)
// calls `showPush` from its `push` handler and `openFromNotification` from `notificationclick`. Typed
// structurally (the worker's own types; the payload's type is the contract's), so a test can call them
// with plain objects.
import type { PushPayload } from '../../../src/contract/types.ts';

interface Registration {
  readonly scope: string;
  showNotification(title: string, options?: NotificationOptions): Promise<void>;
}

interface WindowClient {
  readonly url: string;
  focus(): Promise<unknown>;
  navigate?(url: string): Promise<unknown>;
}

interface Clients {
  matchAll(options: { type: 'window'; includeUncontrolled: boolean }): Promise<readonly WindowClient[]>;
  openWindow(url: string): Promise<unknown>;
}

/**
 * Where a click leads: one worker serves the three apps (scope /app/), so the message's kind names the
 * app: an offer the driver app, an SOS the console's incidents, a ride change the rider app.
 */
export function pageOf(payload: Pick<PushPayload, 'kind'>, scope: string): string {
  if (payload.kind === 'offer') return new URL('driver#/', scope).href;
  if (payload.kind === 'sos') return new URL('ops#/incidents', scope).href;
  return new URL('#/', scope).href;
}

/** The notification a push message shows; an offer or an SOS stays on screen until dealt with. */
export function notificationOf(payload: PushPayload, scope: string): { title: string; options: NotificationOptions } {
  return {
    title: payload.title,
    options: {
      body: payload.body,
      tag: payload.tag,
      requireInteraction: payload.kind !== 'ride',
      data: { url: pageOf(payload, scope), expiresAt: payload.expiresAt },
    },
  };
}

/** The `push` handler's work: a message always shows a notification (browsers require it of userVisibleOnly). */
export function showPush(registration: Registration, payload: PushPayload | undefined): Promise<void> {
  const shown = payload ? notificationOf(payload, registration.scope) : { title: 'Ride update', options: { body: 'Open the app to see what changed.' } };
  return registration.showNotification(shown.title, shown.options);
}

/** The app a page belongs to: the path without its hash (`/app/driver`, `/app/ops`, `/app/`), trailing slash ignored. */
const appOf = (url: string) => new URL(url).pathname.replace(/\/+$/, '');

/** The `notificationclick` handler's work: focus a window of that app if one is open (on the page), else open one. */
export async function openFromNotification(clients: Clients, data: { url?: string } | undefined, scope: string): Promise<void> {
  const url = data?.url ?? scope;
  const windows = await clients.matchAll({ type: 'window', includeUncontrolled: true });
  const open = windows.find((client) => appOf(client.url) === appOf(url));
  if (!open) {
    await clients.openWindow(url);
    return;
  }
  if (open.url !== url && open.navigate) await open.navigate(url).catch(() => undefined);
  await open.focus();
}
