import { useState } from 'preact/hooks';
import type { Ride } from '../api/types.ts';
import { useApi } from '../ui/app-context.tsx';
import { ErrorNotice } from '../ui/components.tsx';
import { useAction } from '../ui/use-action.ts';
import { t } from '../i18n/i18n.ts';

/**
 * Sharing a ride under way with family: a link to a page that needs no app (docs/safety.md). The
 * phone's own share sheet when it has one; otherwise the link to copy.
 */
export function ShareTrip({ ride }: { ride: Ride }) {
  const api = useApi();
  const [url, setUrl] = useState<string | null>(null);
  const share = useAction(async () => {
    const link = await api.safety.share(ride.id);
    setUrl(link.url);
    if (typeof navigator.share === 'function') await navigator.share({ title: t('share.followMyRide'), url: link.url }).catch(() => undefined);
  });
  const stop = useAction(async () => {
    await api.safety.stopSharing(ride.id);
    setUrl(null);
  });
  return (
    <div class="card stack">
      {url === null ? (
        <button type="button" onClick={() => void share.run()} disabled={share.busy}>
          {t('share.share')}
        </button>
      ) : (
        <>
          <label class="field">
            <span>{t('share.link')}</span>
            <input readOnly value={url} data-testid="share-url" onFocus={(event) => event.currentTarget.select()} />
          </label>
          <button type="button" class="danger" onClick={() => void stop.run()} disabled={stop.busy}>
            {t('share.stop')}
          </button>
        </>
      )}
      <ErrorNotice message={share.error || stop.error} />
    </div>
  );
}
