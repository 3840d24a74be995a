import { useEffect, useState } from 'preact/hooks';
import { currentPushSubscription, pushSupported, subscribeThisBrowser } from '../api/web-push.ts';
import { useApi } from './app-context.tsx';
import { ErrorNotice, Notice } from './components.tsx';
import { useAction } from './use-action.ts';

/**
 * "Notify me when the app is closed": asks the browser's permission only when the user presses it,
 * then keeps this browser's push subscription on the server (docs/push.md). `what` says what comes.
 */
export function PushToggle({ what }: { what: string }) {
  const api = useApi();
  const [state, setState] = useState<'unknown' | 'on' | 'off'>('unknown');
  const [note, setNote] = useState('');
  useEffect(() => {
    void currentPushSubscription().then((subscription) => setState(subscription ? 'on' : 'off'), () => setState('off'));
  }, []);
  const turnOn = useAction(async () => {
    const subscription = await subscribeThisBrowser((await api.push.key()).publicKey);
    if (!subscription) return setNote('This browser has not installed the app yet; reload the page and try again.');
    setNote((await api.push.subscribe(subscription)).message);
    setState('on');
  });
  if (!pushSupported()) return null;
  return (
    <section class="card stack" aria-labelledby="push-title">
      <h3 id="push-title">Notifications</h3>
      <p class="flush">{state === 'on' ? `On: ${what} reach this device while the app is closed.` : `Get ${what} on this device while the app is closed.`}</p>
      {state !== 'on' && (
        <button type="button" class="secondary" disabled={turnOn.busy || state === 'unknown'} onClick={() => void turnOn.run()}>
          Notify me when the app is closed
        </button>
      )}
      {note && <Notice>{note}</Notice>}
      {turnOn.error && <ErrorNotice message={turnOn.error} />}
    </section>
  );
}
