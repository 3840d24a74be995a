import { render } from 'preact';
import { createApi } from '../api/endpoints.ts';
import { loadSettings } from '../config.ts';
import { AppProvider } from '../ui/app-context.tsx';
import { registerWorker, UpdateNotice } from '../ui/app-update.tsx';
import { ErrorBoundary } from '../ui/error-boundary.tsx';
import '../ui/styles.css';
import { OpsApp } from './ops-app.tsx';

const settings = await loadSettings();
render(
  <ErrorBoundary app="the operator console">
    <AppProvider api={createApi('ride-hailing.ops')} settings={settings}>
      <UpdateNotice />
      <OpsApp />
    </AppProvider>
  </ErrorBoundary>,
  document.getElementById('app')!,
);
registerWorker();
