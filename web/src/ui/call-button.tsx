import { useState } from 'preact/hooks';
import { useApi } from './app-context.tsx';
import { ErrorNotice, Notice } from './components.tsx';
import { useAction } from './use-action.ts';
import { t } from '../i18n/i18n.ts';

/**
 * "Call driver" in the rider app, "Call rider" in the driver app, on a ride under way: the service's
 * telephony provider rings this person's verified phone, then the other's, and neither sees the other's
 * number (docs/safety.md, masked calls).
 */
export function CallButton({ rideId, callee }: { rideId: number; callee: 'driver' | 'rider' }) {
  const api = useApi();
  const [ringing, setRinging] = useState('');
  const call = useAction(async () => setRinging((await api.safety.call(rideId)).message));
  return (
    <div class="stack">
      <button type="button" class="secondary" onClick={() => void call.run()} disabled={call.busy}>
        {t(callee === 'driver' ? 'call.driver' : 'call.rider')}
      </button>
      {ringing && <Notice>{ringing}</Notice>}
      <ErrorNotice message={call.error} />
    </div>
  );
}
