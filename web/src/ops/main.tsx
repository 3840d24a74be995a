import { render } from 'preact';
import { createApi } from '../api/endpoints.ts';
import { loadSettings } from '../config.ts';
import '../ui/styles.css';
import { OpsApp } from './ops-app.tsx';

const settings = await loadSettings();
render(<OpsApp api={createApi('ride-hailing.ops')} settings={settings} />, document.getElementById('app')!);
