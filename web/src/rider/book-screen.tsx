import { useEffect, useMemo, useState } from 'preact/hooks';
import { MAX_STOPS } from '../../../src/contract/rules.ts';
import type { Point } from '../../../src/contract/types.ts';
import type { FareEstimate, PaymentMode, Ride, RideType } from '../api/types.ts';
import { MapView, type MapMarker } from '../map/map-view.tsx';
import type { Place } from '../map/places.ts';
import { Choice, ErrorNotice, Facts, Field, Notice } from '../ui/components.tsx';
import { km, minutes, money } from '../ui/format.ts';
import { keysOf, PAYMENT_MODE_LABELS, RIDE_TYPE_LABELS } from '../ui/labels.ts';
import { useAction } from '../ui/use-action.ts';
import { PlaceInput } from './place-input.tsx';
import { useApi } from '../ui/app-context.tsx';
import { labelsOf, t } from '../i18n/i18n.ts';

interface Props {
  onBooked: (ride: Ride) => void;
}

type End = 'pickup' | 'drop';

type When = 'now' | 'later';
const WHEN_LABELS = labelsOf('book.', ['now', 'later'] as const satisfies readonly When[]);

/** An instant as a datetime-local input shows it: the device's local date and time, to the minute. */
const localInput = (epochMs: number): string => {
  const local = new Date(epochMs - new Date(epochMs).getTimezoneOffset() * 60_000);
  return local.toISOString().slice(0, 16);
};

const pinned = (point: Point): Place => ({ name: t('book.pinned', { lat: point.lat.toFixed(4), lon: point.lon.toFixed(4) }), ...point });

/** Where from, where to, which ride type at what price, how to pay: then book. */
export function BookScreen({ onBooked }: Props) {
  const api = useApi();
  const [pickup, setPickup] = useState<Place | null>(null);
  const [drop, setDrop] = useState<Place | null>(null);
  // Stops on the way, in order; an entry is null until its place is picked.
  const [stops, setStops] = useState<Array<Place | null>>([]);
  const chosenStops = stops.filter((stop): stop is Place => stop !== null);
  const stopsKey = chosenStops.map(({ lat, lon }) => `${lat},${lon}`).join(';');
  const [mapSets, setMapSets] = useState<End>('pickup');
  const [estimates, setEstimates] = useState<FareEstimate[] | null>(null);
  const [rideType, setRideType] = useState<RideType>('mini');
  const [paymentMode, setPaymentMode] = useState<PaymentMode>('CASH');
  // Now, or a pickup time ahead (the input's local date and time; empty until picked).
  const [when, setWhen] = useState<When>('now');
  const [later, setLater] = useState('');

  // The rider's own defaults: vehicle type and payment method from their settings.
  useEffect(() => {
    api.settings.get().then(
      (mine) => {
        setRideType(mine.preferredVehicleType);
        setPaymentMode(mine.defaultPaymentMethod.toUpperCase() as PaymentMode);
      },
      () => undefined,
    );
  }, [api]);

  const quote = useAction(async (from: Place, to: Place) => {
    setEstimates(null);
    const trip = { pickupLat: from.lat, pickupLon: from.lon, dropLat: to.lat, dropLon: to.lon, ...(stopsKey ? { stops: stopsKey } : {}) };
    setEstimates(await Promise.all(keysOf(RIDE_TYPE_LABELS).map((type) => api.rides.estimate({ ...trip, rideType: type }))));
  });
  useEffect(() => {
    if (pickup && drop) void quote.run(pickup, drop);
    else setEstimates(null);
    // Quote again only when the trip changes.
  }, [pickup, drop, stopsKey]);

  const book = useAction(async () => {
    if (!pickup || !drop) return;
    onBooked(
      await api.rides.book({
        pickupLocation: pickup.name,
        dropLocation: drop.name,
        pickupLat: pickup.lat,
        pickupLon: pickup.lon,
        dropLat: drop.lat,
        dropLon: drop.lon,
        rideType,
        paymentMode,
        stops: chosenStops.map(({ lat, lon, name }) => ({ lat, lon, place: name })),
        ...(when === 'later' && later ? { scheduledAt: new Date(later).toISOString() } : {}),
      }),
    );
  });

  const markers = useMemo(() => {
    const list: MapMarker[] = [];
    if (pickup) list.push({ id: 'pickup', kind: 'pickup', label: t('map.pickupAt', { place: pickup.name }), lat: pickup.lat, lon: pickup.lon });
    chosenStops.forEach((stop, i) => list.push({ id: `stop-${i}`, kind: 'drop', label: t('map.stopAt', { n: i + 1, place: stop.name }), lat: stop.lat, lon: stop.lon }));
    if (drop) list.push({ id: 'drop', kind: 'drop', label: t('map.dropAt', { place: drop.name }), lat: drop.lat, lon: drop.lon });
    return list;
  }, [pickup, drop, stopsKey]);

  const chosen = estimates?.find((estimate) => estimate.rideType === rideType);

  return (
    <section class="stack" aria-labelledby="book-title">
      <h2 id="book-title">{t('book.title')}</h2>
      <div class="card stack">
        <PlaceInput label={t('book.pickup')} name="pickup" value={pickup} onChange={setPickup} onUseMap={() => setMapSets('pickup')} mapArmed={mapSets === 'pickup'} />
        {stops.map((stop, i) => (
          <div key={i} class="stack">
            <PlaceInput label={t('book.stop', { n: i + 1 })} name={`stop ${i + 1}`} value={stop} onChange={(place) => setStops(stops.map((old, j) => (j === i ? place : old)))} />
            <button type="button" class="secondary" onClick={() => setStops(stops.filter((_, j) => j !== i))}>
              {t('book.removeStop', { n: i + 1 })}
            </button>
          </div>
        ))}
        {stops.length < MAX_STOPS && (
          <button type="button" class="secondary" onClick={() => setStops([...stops, null])}>
            {t('book.addStop')}
          </button>
        )}
        <PlaceInput label={t('book.drop')} name="drop" value={drop} onChange={setDrop} onUseMap={() => setMapSets('drop')} mapArmed={mapSets === 'drop'} />
      </div>
      <MapView
        label={t('book.mapLabel')}
        markers={markers}
        line={pickup && drop ? [pickup, ...chosenStops, drop] : undefined}
        onPick={(point) => {
          if (mapSets === 'pickup') {
            setPickup(pinned(point));
            if (!drop) setMapSets('drop');
          } else {
            setDrop(pinned(point));
          }
        }}
      />
      <p class="muted">{t('book.tapSets', { end: mapSets })}</p>
      <ErrorNotice message={quote.error} />
      {quote.busy && <Notice>{t('book.gettingPrices')}</Notice>}
      {estimates && (
        <form
          class="stack"
          onSubmit={(event) => {
            event.preventDefault();
            void book.run();
          }}
        >
          <fieldset class="stack card">
            <legend>
              <h3>{t('book.rideType')}</h3>
            </legend>
            {estimates.map((estimate) => (
              <label key={estimate.rideType} class="choice">
                <input type="radio" name="rideType" value={estimate.rideType} checked={estimate.rideType === rideType} onChange={() => setRideType(estimate.rideType)} />
                <span>
                  <strong>{RIDE_TYPE_LABELS[estimate.rideType]}</strong>
                  <br />
                  <span class="muted">
                    {estimate.driverNearby === false ? t('book.noDriverNearby') : t('book.pickupIn', { min: estimate.etaMinMinutes, max: estimate.etaMaxMinutes })}
                  </span>
                </span>
                <strong>{money(estimate.fare)}</strong>
              </label>
            ))}
          </fieldset>
          {chosen && (
            <div class="card" aria-label={t('book.priceAria')}>
              <h3>{t('book.howPriceMade', { type: RIDE_TYPE_LABELS[chosen.rideType] })}</h3>
              <Facts
                items={[
                  [t('fare.baseFare'), money(chosen.baseFare)],
                  [t('fare.distanceOf', { km: km(chosen.distanceKm) }), money(chosen.distanceFare)],
                  [t('fare.timeOf', { minutes: minutes(chosen.durationMinutes) }), money(chosen.timeFare)],
                  ...(chosen.stops > 0 ? [[t('fare.stopsOf', { count: chosen.stops }), money(chosen.stopsFare)] as [string, string]] : []),
                  [t('book.demand'), chosen.surgeMultiplier === 1 ? t('book.demandNormal') : `× ${chosen.surgeMultiplier}`],
                  [t('book.youPay'), <strong key="fare">{money(chosen.fare)}</strong>],
                ]}
              />
            </div>
          )}
          <Field label={t('book.when')}>
            <Choice name="when" value={when} labels={WHEN_LABELS} onChange={setWhen} />
          </Field>
          {when === 'later' && (
            <>
              <Field label={t('book.pickupTime')}>
                <input type="datetime-local" required value={later} min={localInput(Date.now() + 30 * 60_000)} onInput={(event) => setLater(event.currentTarget.value)} />
              </Field>
              <p class="muted">{t('book.aheadNote')}</p>
            </>
          )}
          <Field label={t('book.payment')}>
            <Choice name="paymentMode" value={paymentMode} labels={PAYMENT_MODE_LABELS} onChange={setPaymentMode} />
          </Field>
          <ErrorNotice message={book.error} />
          <button type="submit" class="wide" disabled={book.busy || !chosen || (when === 'later' && !later)}>
            {book.busy ? t('book.booking') : chosen ? t('book.bookFor', { type: RIDE_TYPE_LABELS[chosen.rideType], fare: money(chosen.fare) }) : t('book.book')}
          </button>
        </form>
      )}
    </section>
  );
}
