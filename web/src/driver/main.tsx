import { startLocalizedApp } from '../ui/localized.tsx';
import '../ui/styles.css';
import { DriverApp } from './driver-app.tsx';

await startLocalizedApp('ride-hailing.driver', 'driver.app', DriverApp);
