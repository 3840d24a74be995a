import { useState } from 'preact/hooks';
import type { DestinationQuote } from '../../../src/contract/types.ts';
import type { Ride } from '../api/types.ts';
import type { Place } from '../map/places.ts';
import { useApi } from '../ui/app-context.tsx';
import { ErrorNotice, Facts } from '../ui/components.tsx';
import { km, minutes, money, timeOf } from '../ui/format.ts';
import { useAction } from '../ui/use-action.ts';
import { PlaceInput } from './place-input.tsx';
import { t } from '../i18n/i18n.ts';

/** Going somewhere else on an open ride: pick the place, see what the whole trip would cost, confirm. */
export function ChangeDestination({ ride, onRide }: { ride: Ride; onRide: (ride: Ride) => void }) {
  const api = useApi();
  const [open, setOpen] = useState(false);
  const [place, setPlace] = useState<Place | null>(null);
  const [quote, setQuote] = useState<DestinationQuote | null>(null);
  const ask = useAction(async (to: Place) => {
    setQuote(null);
    setQuote(await api.rides.destinationQuote(ride.id, { lat: to.lat, lon: to.lon, place: to.name }));
  });
  const confirm = useAction(async (chosen: DestinationQuote) => {
    onRide(await api.rides.confirmDestination(ride.id, chosen.quoteId));
    setOpen(false);
    setPlace(null);
    setQuote(null);
  });

  if (!open) {
    return (
      <button type="button" class="secondary" onClick={() => setOpen(true)}>
        {t('dest.change')}
      </button>
    );
  }
  return (
    <div class="card stack" aria-label={t('dest.change')}>
      <h3>{t('dest.change')}</h3>
      <PlaceInput
        label={t('dest.new')}
        name="destination"
        value={place}
        onChange={(chosen) => {
          setPlace(chosen);
          void ask.run(chosen);
        }}
      />
      <ErrorNotice message={ask.error} />
      {quote && (
        <>
          <Facts
            items={[
              [t('dest.newFare'), <strong key="fare">{money(quote.fare)}</strong>],
              [t('dest.now'), money(quote.previousFare)],
              [t('dest.wholeTrip'), `${km(quote.distanceKm)}, ${minutes(quote.durationMinutes)}`],
              [t('dest.holdsUntil'), timeOf(quote.expiresAt)],
            ]}
          />
          <ErrorNotice message={confirm.error} />
          <button type="button" disabled={confirm.busy} onClick={() => void confirm.run(quote)}>
            {t('dest.goTo', { place: quote.dropLocation ?? t('dest.theNewPlace'), fare: money(quote.fare) })}
          </button>
        </>
      )}
      <button
        type="button"
        class="secondary"
        onClick={() => {
          setOpen(false);
          setQuote(null);
        }}
      >
        {t('dest.keep')}
      </button>
    </div>
  );
}
