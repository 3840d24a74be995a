import { useEffect, useState } from 'preact/hooks';
import { ApiError } from '../api/client.ts';
import type { Offer, Ride } from '../api/types.ts';
import { ErrorNotice, Facts } from '../ui/components.tsx';
import { km, minutes, money } from '../ui/format.ts';
import { RIDE_TYPE_LABELS } from '../ui/labels.ts';
import { useAction } from '../ui/use-action.ts';
import { useApi } from '../ui/app-context.tsx';
import { t } from '../i18n/i18n.ts';

interface Props {
  offer: Offer;
  /** The service's clock minus this device's. */
  skewMs: number;
  onAccepted: (ride: Ride) => void;
  /** The offer is no longer there (declined, expired, taken); with a message when the driver should know why. */
  onGone: (message: string) => void;
}

const secondsLeft = (offer: Offer, skewMs: number) => Math.max(0, Math.ceil((Date.parse(offer.expiresAt) - (Date.now() + skewMs)) / 1000));

/** One ride offered to the driver, with the seconds left to answer. */
export function OfferCard({ offer, skewMs, onAccepted, onGone }: Props) {
  const api = useApi();
  const [left, setLeft] = useState(() => secondsLeft(offer, skewMs));
  useEffect(() => {
    const tick = setInterval(() => setLeft(secondsLeft(offer, skewMs)), 250);
    return () => clearInterval(tick);
  }, [offer, skewMs]);
  useEffect(() => {
    if (left === 0) onGone('');
  }, [left]);

  const accept = useAction(async () => {
    try {
      onAccepted(await api.offers.accept(offer.offerId));
    } catch (error) {
      // Taken by someone else, withdrawn or expired in the meantime: it is gone either way.
      if (error instanceof ApiError && (error.status === 404 || error.status === 409)) return onGone(error.message);
      throw error;
    }
  });
  const decline = useAction(async () => {
    await api.offers.decline(offer.offerId, { reason: null });
    onGone('');
  });

  return (
    <article class="card stack" aria-labelledby={`offer-${offer.offerId}`} data-offer={offer.offerId}>
      <div class="row spread">
        <h3 id={`offer-${offer.offerId}`}>
          {t('offer.title', { type: RIDE_TYPE_LABELS[offer.rideType], fare: money(offer.fare) })}
        </h3>
        <span class="countdown" role="timer" aria-label={t('offer.secondsLeft', { left })}>
          {t('offer.seconds', { left })}
        </span>
      </div>
      <Facts
        items={[
          [t('offer.pickup'), offer.pickupLocation ?? t('common.pinnedPoint')],
          [t('offer.drop'), offer.dropLocation ?? t('common.pinnedPoint')],
          [t('offer.toPickup'), t('offer.toPickupValue', { km: km(offer.pickupDistanceKm), minutes: minutes(offer.pickupEtaMinutes) })],
        ]}
      />
      <ErrorNotice message={accept.error || decline.error} />
      <div class="row">
        <button type="button" disabled={accept.busy || decline.busy || left === 0} onClick={() => void accept.run()}>
          {t('offer.accept')}
        </button>
        <button type="button" class="secondary" disabled={accept.busy || decline.busy} onClick={() => void decline.run()}>
          {t('offer.decline')}
        </button>
      </div>
    </article>
  );
}
