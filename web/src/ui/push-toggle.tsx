import { useEffect, useState } from 'preact/hooks';
import { currentPushSubscription, pushSupported, subscribeThisBrowser } from '../api/web-push.ts';
import { t } from '../i18n/i18n.ts';
import { useApi } from './app-context.tsx';
import { ErrorNotice, Notice } from './components.tsx';
import { useAction } from './use-action.ts';

/**
 * "Notify me when the app is closed": asks the browser's permission only when the user presses it,
 * then keeps this browser's push subscription on the server (docs/push.md). `what` says what comes
 * (in the app's language, fitting "Get … on this device").
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
    if (!subscription) return setNote(t('push.notInstalled'));
    setNote((await api.push.subscribe(subscription)).message);
    setState('on');
  });
  if (!pushSupported()) return null;
  return (
    <section class="card stack" aria-labelledby="push-title">
      <h3 id="push-title">{t('push.title')}</h3>
      <p class="flush">{t(state === 'on' ? 'push.on' : 'push.off', { what })}</p>
      {state !== 'on' && (
        <button type="button" class="secondary" disabled={turnOn.busy || state === 'unknown'} onClick={() => void turnOn.run()}>
          {t('push.turnOn')}
        </button>
      )}
      {note && <Notice>{note}</Notice>}
      {turnOn.error && <ErrorNotice message={turnOn.error} />}
    </section>
  );
}
