import { render } from 'preact';
import { createApi } from '../api/endpoints.ts';
import '../ui/styles.css';
import { OpsApp } from './ops-app.tsx';

render(<OpsApp api={createApi('ride-hailing.ops')} />, document.getElementById('app')!);
