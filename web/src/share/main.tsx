import { render } from 'preact';
import { createApi } from '../api/endpoints.ts';
import { loadSettings } from '../config.ts';
import { browserLanguage, setLanguage, t } from '../i18n/i18n.ts';
import { AppProvider } from '../ui/app-context.tsx';
import { ErrorBoundary } from '../ui/error-boundary.tsx';
import '../ui/styles.css';
import { SharePage } from './share-page.tsx';

const settings = await loadSettings();
// Nobody signs in here: the page speaks the browser's language, and leaves the one this browser's
// rider app remembers alone.
await setLanguage(browserLanguage(), { remember: null });
// The page's address is /share/<token>: the token is all it knows.
const token = decodeURIComponent(location.pathname.split('/').pop() ?? '');
render(
  <ErrorBoundary app={t('sharePage.app')}>
    <AppProvider api={createApi('ride-hailing.share')} settings={settings}>
      <SharePage token={token} />
    </AppProvider>
  </ErrorBoundary>,
  document.getElementById('app')!,
);
