import { render } from 'preact';
import { createApi } from '../api/endpoints.ts';
import { loadSettings } from '../config.ts';
import '../ui/styles.css';
import { RiderApp } from './rider-app.tsx';

const settings = await loadSettings();
render(<RiderApp api={createApi('ride-hailing.rider')} settings={settings} />, document.getElementById('app')!);
