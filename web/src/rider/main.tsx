import { createApi } from '../api/endpoints.ts';
import { loadSettings } from '../config.ts';
import { t } from '../i18n/i18n.ts';
import { AppProvider } from '../ui/app-context.tsx';
import { registerWorker, UpdateNotice } from '../ui/app-update.tsx';
import { ErrorBoundary } from '../ui/error-boundary.tsx';
import { renderLocalized } from '../ui/localized.tsx';
import '../ui/styles.css';
import { RiderApp } from './rider-app.tsx';

const settings = await loadSettings();
const api = createApi('ride-hailing.rider');
await renderLocalized(
  () => (
    <ErrorBoundary app={t('rider.app')}>
      <AppProvider api={api} settings={settings}>
        <UpdateNotice />
        <RiderApp />
      </AppProvider>
    </ErrorBoundary>
  ),
  document.getElementById('app')!,
);
registerWorker();
