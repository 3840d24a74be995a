// The push handlers (docs/push.md). The service worker (sw.ts) imports this module, so the `push` and
// `notificationclick` handlers written here run in the same worker as the offline shell; what they show
// and where a click leads is web/src/push/notification.ts.
import type { PushPayload } from '../../../src/contract/types.ts';
import { openFromNotification, showPush } from '../push/notification.ts';

declare const self: ServiceWorkerGlobalScope;

self.addEventListener('push', (event) => {
  let payload: PushPayload | undefined;
  try {
    payload = event.data?.json() as PushPayload | undefined;
  } catch {
    payload = undefined;
  }
  event.waitUntil(showPush(self.registration, payload));
});

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  event.waitUntil(openFromNotification(self.clients, event.notification.data as { url?: string } | undefined, self.registration.scope));
});
