import { useState } from 'preact/hooks';
import type { DestinationQuote } from '../../../src/contract/types.ts';
import type { Ride } from '../api/types.ts';
import type { Place } from '../map/places.ts';
import { useApi } from '../ui/app-context.tsx';
import { ErrorNotice, Facts } from '../ui/components.tsx';
import { km, minutes, money, timeOf } from '../ui/format.ts';
import { useAction } from '../ui/use-action.ts';
import { PlaceInput } from './place-input.tsx';

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
        Change destination
      </button>
    );
  }
  return (
    <div class="card stack" aria-label="Change destination">
      <h3>Change destination</h3>
      <PlaceInput
        label="New destination"
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
              ['New fare', <strong key="fare">{money(quote.fare)}</strong>],
              ['Now', money(quote.previousFare)],
              ['Whole trip', `${km(quote.distanceKm)}, ${minutes(quote.durationMinutes)}`],
              ['Price holds until', timeOf(quote.expiresAt)],
            ]}
          />
          <ErrorNotice message={confirm.error} />
          <button type="button" disabled={confirm.busy} onClick={() => void confirm.run(quote)}>
            Go to {quote.dropLocation ?? 'the new place'} for {money(quote.fare)}
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
        Keep the destination
      </button>
    </div>
  );
}
