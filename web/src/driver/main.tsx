import { createApi } from '../api/endpoints.ts';
import { loadSettings } from '../config.ts';
import { t } from '../i18n/i18n.ts';
import { AppProvider } from '../ui/app-context.tsx';
import { registerWorker, UpdateNotice } from '../ui/app-update.tsx';
import { ErrorBoundary } from '../ui/error-boundary.tsx';
import { renderLocalized } from '../ui/localized.tsx';
import '../ui/styles.css';
import { DriverApp } from './driver-app.tsx';

const settings = await loadSettings();
const api = createApi('ride-hailing.driver');
await renderLocalized(
  () => (
    <ErrorBoundary app={t('driver.app')}>
      <AppProvider api={api} settings={settings}>
        <UpdateNotice />
        <DriverApp />
      </AppProvider>
    </ErrorBoundary>
  ),
  document.getElementById('app')!,
);
registerWorker();
