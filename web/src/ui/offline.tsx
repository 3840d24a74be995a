import { useEffect, useState } from 'preact/hooks';
import { t } from '../i18n/i18n.ts';
import { Notice } from './components.tsx';

/** Whether the device has a network (the browser's navigator.onLine, followed as it changes). */
export function useOnline(): boolean {
  const [online, setOnline] = useState(navigator.onLine);
  useEffect(() => {
    const update = () => setOnline(navigator.onLine);
    addEventListener('online', update);
    addEventListener('offline', update);
    return () => {
      removeEventListener('online', update);
      removeEventListener('offline', update);
    };
  }, []);
  return online;
}

/** Says so while the device is offline: what the app shows is what it last knew (the service worker keeps the app, the app its last ride). */
export function OfflineNotice() {
  if (useOnline()) return null;
  return <Notice kind="warn">{t('shell.offlineNotice')}</Notice>;
}
