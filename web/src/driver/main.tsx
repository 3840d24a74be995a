import { render } from 'preact';
import { createApi } from '../api/endpoints.ts';
import { loadSettings } from '../config.ts';
import { AppProvider } from '../ui/app-context.tsx';
import { registerWorker, UpdateNotice } from '../ui/app-update.tsx';
import { ErrorBoundary } from '../ui/error-boundary.tsx';
import '../ui/styles.css';
import { DriverApp } from './driver-app.tsx';

const settings = await loadSettings();
render(
  <ErrorBoundary app="the driver app">
    <AppProvider api={createApi('ride-hailing.driver')} settings={settings}>
      <UpdateNotice />
      <DriverApp />
    </AppProvider>
  </ErrorBoundary>,
  document.getElementById('app')!,
);
registerWorker();
