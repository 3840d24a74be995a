import { useMemo } from 'preact/hooks';
import { MapView, type MapMarker } from '../map/map-view.tsx';
import { pointOf } from '../map/places.ts';
import { ErrorNotice, Notice } from '../ui/components.tsx';
import { RIDE_TYPE_LABELS } from '../ui/labels.ts';
import { useAction } from '../ui/use-action.ts';
import { OfferCard } from './offer-card.tsx';
import { TripPanel } from './trip-panel.tsx';
import type { Driver } from './use-driver.ts';
import type { PositionSource } from './use-position.ts';
import { livePosition } from '../../../src/contract/rules.ts';
import type { VNode } from 'preact';
import { rich, t, type MessageKey } from '../i18n/i18n.ts';


const SOURCE_TEXT = { waiting: 'drive.waiting', device: 'drive.device', marker: 'drive.marker' } as const satisfies Record<PositionSource, MessageKey>;

/** Online and offline, the offers as they come, and the ride once accepted. */
export function DriveScreen({ driver }: { driver: Driver }) {
  const { profile, online, position, source, offers, ride, notice } = driver;
  const offline = useAction(driver.goOffline);
  const onTrip = ride !== null && livePosition(ride.status);

  const markers = useMemo(() => {
    const list: MapMarker[] = [];
    if (position) list.push({ id: 'me', kind: 'me', label: source === 'marker' ? t('drive.youDrag') : t('drive.you'), draggable: source === 'marker', ...position });
    const trip = ride ?? offers[0];
    if (trip && trip.pickupLat !== null && trip.pickupLon !== null) list.push({ id: 'pickup', kind: 'pickup', label: t('map.pickupAt', { place: trip.pickupLocation ?? t('common.aPinnedPoint') }), lat: trip.pickupLat, lon: trip.pickupLon });
    if (trip && trip.dropLat !== null && trip.dropLon !== null) list.push({ id: 'drop', kind: 'drop', label: t('map.dropAt', { place: trip.dropLocation ?? t('common.aPinnedPoint') }), lat: trip.dropLat, lon: trip.dropLon });
    return list;
  }, [position, source, ride, offers]);

  const target = ride?.status === 'ACCEPTED' ? pointOf(ride.pickupLat, ride.pickupLon) : ride?.status === 'PICKED' ? pointOf(ride.dropLat, ride.dropLon) : null;

  return (
    <section class="stack" aria-labelledby="drive-title">
      <div class="row spread">
        <h2 id="drive-title">{onTrip ? t('drive.onRide') : online ? t('drive.online') : t('drive.offline')}</h2>
        {!onTrip &&
          (online ? (
            <button type="button" class="secondary" disabled={offline.busy} onClick={() => void offline.run()}>
              {t('drive.goOffline')}
            </button>
          ) : (
            <button type="button" disabled={!profile} onClick={driver.goOnline}>
              {t('drive.goOnline')}
            </button>
          ))}
      </div>
      {profile === null && (
        <Notice kind="warn">
          {rich<VNode>('drive.addVehicle', { link: (chunks) => <a href="#/profile">{chunks}</a> })}
        </Notice>
      )}
      {profile && !online && !onTrip && (
        <p class="muted flush">
          {t('drive.goOnlineHint', { type: RIDE_TYPE_LABELS[profile.vehicleType], plate: profile.vehicleNumber })}
        </p>
      )}
      {(online || onTrip) && <p class="muted flush" data-testid="position-source">{t(SOURCE_TEXT[source])}</p>}
      <ErrorNotice message={offline.error} />
      {notice && (
        <div class="row notice warn" role="status">
          <span>{notice}</span>
          <button type="button" class="secondary" onClick={() => driver.setNotice('')}>
            {t('drive.dismiss')}
          </button>
        </div>
      )}
      <MapView
        label={t('drive.mapLabel')}
        markers={markers}
        line={position && target ? [position, target] : undefined}
        onPick={source === 'marker' ? driver.place : undefined}
        onDrag={(_id, point) => driver.place(point)}
      />
      {ride ? (
        <TripPanel ride={ride} position={position} onRide={driver.showRide} />
      ) : (
        online && (
          <div class="stack" aria-live="polite">
            {offers.length === 0 && <p class="muted">{t('drive.waitingOffers')}</p>}
            {offers.map((offer) => (
              <OfferCard
                key={offer.offerId}
                offer={offer}
                skewMs={driver.skewMs}
                onAccepted={(accepted) => {
                  driver.setOffers(() => []);
                  driver.showRide(accepted);
                }}
                onGone={(message) => {
                  driver.setOffers((list) => list.filter((item) => item.offerId !== offer.offerId));
                  if (message) driver.setNotice(message);
                }}
              />
            ))}
          </div>
        )
      )}
    </section>
  );
}
