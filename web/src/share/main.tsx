import { render } from 'preact';
import { createApi } from '../api/endpoints.ts';
import { loadSettings } from '../config.ts';
import { AppProvider } from '../ui/app-context.tsx';
import { ErrorBoundary } from '../ui/error-boundary.tsx';
import '../ui/styles.css';
import { SharePage } from './share-page.tsx';

const settings = await loadSettings();
// The page's address is /share/<token>: the token is all it knows.
const token = decodeURIComponent(location.pathname.split('/').pop() ?? '');
render(
  <ErrorBoundary app="the shared trip">
    <AppProvider api={createApi('ride-hailing.share')} settings={settings}>
      <SharePage token={token} />
    </AppProvider>
  </ErrorBoundary>,
  document.getElementById('app')!,
);
