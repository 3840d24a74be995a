import { addCatalogue } from '../i18n/i18n.ts';
import { opsEn } from '../i18n/ops-en.ts';
import { startLocalizedApp } from '../ui/localized.tsx';
import '../ui/styles.css';
import { OpsApp } from './ops-app.tsx';

// The console's own texts, beside the shared ones: only this app downloads them.
addCatalogue({ en: opsEn, load: { hi: () => import('../i18n/ops-hi.ts'), kn: () => import('../i18n/ops-kn.ts') } });
await startLocalizedApp('ride-hailing.ops', 'ops.app', OpsApp);
