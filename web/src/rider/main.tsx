import { startLocalizedApp } from '../ui/localized.tsx';
import '../ui/styles.css';
import { RiderApp } from './rider-app.tsx';

await startLocalizedApp('ride-hailing.rider', 'rider.app', RiderApp);
