import { render } from 'preact';
import { loadSettings } from '../config.ts';
import { ErrorBoundary } from '../ui/error-boundary.tsx';
import '../ui/styles.css';
import { SharePage } from './share-page.tsx';

const settings = await loadSettings();
// The page's address is /share/<token>: the token is all it knows.
const token = decodeURIComponent(location.pathname.split('/').pop() ?? '');
render(
  <ErrorBoundary app="the shared trip">
    <SharePage settings={settings} token={token} />
  </ErrorBoundary>,
  document.getElementById('app')!,
);
