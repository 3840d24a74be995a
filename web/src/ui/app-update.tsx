import { useEffect, useState } from 'preact/hooks';
import { t } from '../i18n/i18n.ts';

// The service worker (web/src/sw/sw.ts) keeps one build of the apps for offline use. A new build's
// worker waits; this tells the user, and reloads the page once the worker has taken over, so a page
// never runs with the files of another build.

let ready = false;
const listeners = new Set<(ready: boolean) => void>();
const announce = () => {
  ready = true;
  for (const listener of listeners) listener(true);
};
/** Set when this tab asked the new worker to take over: it reloads once the worker has. */
let takingOver = false;
let waiting: ServiceWorker | null = null;

/** Registers the apps' worker (not in `vite` dev mode, which serves files that change on every save). */
export function registerWorker(): void {
  if (import.meta.env.DEV || !('serviceWorker' in navigator)) return;
  // After the page has loaded: filling the worker's cache must not slow the app's first start.
  if (document.readyState === 'complete') register(navigator.serviceWorker);
  else addEventListener('load', () => register(navigator.serviceWorker), { once: true });
}

function register(workers: ServiceWorkerContainer): void {
  const track = (worker: ServiceWorker) =>
    worker.addEventListener('statechange', () => {
      // Installed beside a worker that controls this page: the new build waits for the user.
      if (worker.state === 'installed' && workers.controller) {
        waiting = worker;
        announce();
      }
    });
  // A page opened before any worker gets its first one (the same build's) without a word.
  const hadController = workers.controller !== null;
  workers.addEventListener('controllerchange', () => {
    if (takingOver) location.reload();
    // Another tab moved everyone to the new build: this page is of the old one, so offer the reload.
    else if (hadController) announce();
  });
  workers
    .register('/app/sw.js', { scope: '/app/' })
    .then((registration) => {
      if (registration.waiting && workers.controller) {
        waiting = registration.waiting;
        announce();
      }
      if (registration.installing) track(registration.installing);
      registration.addEventListener('updatefound', () => registration.installing && track(registration.installing));
      // An app left open all day (the driver's) still hears of a new build.
      setInterval(() => void registration.update().catch(() => undefined), 60 * 60_000);
    })
    .catch((error: unknown) => console.warn('the service worker did not register; the apps work without it', error));
}

function reloadIntoNewVersion(): void {
  if (!waiting) return location.reload();
  takingOver = true;
  waiting.postMessage({ type: 'take-over' });
}

/** "A new version is ready", with the button that reloads into it. */
export function UpdateNotice() {
  const [shown, setShown] = useState(ready);
  useEffect(() => {
    listeners.add(setShown);
    return () => void listeners.delete(setShown);
  }, []);
  if (!shown) return null;
  return (
    <div class="app-update" role="status">
      <span>{t('shell.updateReady')}</span>
      <button type="button" onClick={reloadIntoNewVersion}>
        {t('shell.updateReload')}
      </button>
    </div>
  );
}
