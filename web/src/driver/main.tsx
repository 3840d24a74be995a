import { render } from 'preact';
import { createApi } from '../api/endpoints.ts';
import { loadSettings } from '../config.ts';
import '../ui/styles.css';
import { DriverApp } from './driver-app.tsx';

const settings = await loadSettings();
render(<DriverApp api={createApi('ride-hailing.driver')} settings={settings} />, document.getElementById('app')!);
