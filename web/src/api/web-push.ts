// This browser's Web Push subscription, through the service worker the app registered (docs/push.md):
// what the apps post to /push/subscriptions, and drop on sign-out.

/** Whether this browser can take push messages at all. */
export const pushSupported = (): boolean => typeof navigator !== 'undefined' && 'serviceWorker' in navigator && typeof window !== 'undefined' && 'PushManager' in window && 'Notification' in window;

/** The app's service worker registration, if it has one (none while the worker is not installed). */
async function registration(): Promise<ServiceWorkerRegistration | undefined> {
  if (!pushSupported()) return undefined;
  return navigator.serviceWorker.getRegistration();
}

/** This browser's current subscription, or null. */
export async function currentPushSubscription(): Promise<PushSubscription | null> {
  return (await registration())?.pushManager.getSubscription() ?? null;
}

/**
 * Asks for permission (call it from a click: browsers refuse a prompt nobody asked for) and subscribes
 * with the service's public key; null when there is no service worker to receive the messages.
 */
export async function subscribeThisBrowser(publicKey: string): Promise<PushSubscriptionJSON | null> {
  const found = await registration();
  if (!found) return null;
  if ((await Notification.requestPermission()) !== 'granted') throw new Error('Notifications are blocked for this site in the browser settings.');
  const existing = await found.pushManager.getSubscription();
  const key = Uint8Array.from(atob(publicKey.replace(/-/g, '+').replace(/_/g, '/')), (c) => c.charCodeAt(0));
  // A subscription made with another key (the service's key changed) cannot be used: replace it.
  const reusable = existing && sameKey(existing.options.applicationServerKey, key) ? existing : null;
  if (existing && !reusable) await existing.unsubscribe();
  const subscription = reusable ?? (await found.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: key }));
  return subscription.toJSON();
}

function sameKey(given: ArrayBuffer | null, key: Uint8Array): boolean {
  if (!given) return false;
  const bytes = new Uint8Array(given);
  return bytes.length === key.length && bytes.every((byte, i) => byte === key[i]);
}
