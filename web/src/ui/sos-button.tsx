import { useState } from 'preact/hooks';
import { useApi } from './app-context.tsx';
import { ErrorNotice, Notice } from './components.tsx';
import { useAction } from './use-action.ts';
import { t } from '../i18n/i18n.ts';

/**
 * The SOS button of a ride under way, in the rider and the driver app: one tap alerts the operators
 * (and sends the emergency contact the trip's link); pressing it again adds to the same incident.
 */
export function SosButton({ rideId }: { rideId: number }) {
  const api = useApi();
  const [told, setTold] = useState<{ contact: boolean } | null>(null);
  const sos = useAction(async () => {
    const receipt = await api.safety.sos(rideId);
    setTold({ contact: receipt.emergencyContactTold });
  });
  return (
    <div class="stack">
      <button type="button" class="danger sos" onClick={() => void sos.run()} disabled={sos.busy}>
        {t('sos.button')}
      </button>
      {told && (
        <Notice kind="warn">
          {t(told.contact ? 'sos.alertedContact' : 'sos.alerted')}
        </Notice>
      )}
      <ErrorNotice message={sos.error} />
    </div>
  );
}
