import { useMemo, useState } from 'preact/hooks';
import type { RidePosition } from '../../../src/contract/types.ts';
import { livePosition } from '../../../src/contract/rules.ts';
import type { Ride } from '../api/types.ts';
import { MapView, type MapMarker } from '../map/map-view.tsx';
import { pointOf } from '../map/places.ts';
import { useSettings } from '../ui/app-context.tsx';
import { Facts, Notice } from '../ui/components.tsx';
import { dateTimeOf, minutes, money, timeOf } from '../ui/format.ts';
import { PAYMENT_MODE_LABELS, RIDE_TYPE_LABELS, STATUS_LABELS } from '../ui/labels.ts';
import { fareBreakdownOf, FareBreakdownCard } from '../ui/fare-breakdown.tsx';
import { hasReceipt, ReceiptCard } from '../ui/receipt-card.tsx';
import { AddedCharges, arrivedAtOf, chargesOf, WaitingClock } from '../ui/trip-extras.tsx';
import { CancelDialog } from './cancel-dialog.tsx';
import { DriverCard } from './driver-card.tsx';
import { PaymentPanel } from './payment-panel.tsx';
import { RatingForm } from './rating-form.tsx';
import { ShareTrip } from './share-trip.tsx';
import { ChangeDestination } from './change-destination.tsx';
import { StopList } from '../ui/stop-list.tsx';
import { CallButton } from '../ui/call-button.tsx';
import { SosButton } from '../ui/sos-button.tsx';
import { t } from '../i18n/i18n.ts';

interface Props {
  ride: Ride;
  /** The newest position from the realtime channel (newer than the ride's own). */
  driverAt: RidePosition | null;
  onRide: (ride: Ride) => void;
  onDone: () => void;
}

/** One booked ride from request to rating: the driver on the map, the codes, cancel, pay, rate. */
export function RideScreen({ ride, driverAt, onRide, onDone }: Props) {
  const { checkoutUrl } = useSettings();
  const [cancelling, setCancelling] = useState(false);
  const pickup = pointOf(ride.pickupLat, ride.pickupLon);
  const drop = pointOf(ride.dropLat, ride.dropLon);
  const following = livePosition(ride.status);
  const driver = following ? (driverAt ?? pointOf(ride.driverLat, ride.driverLon)) : null;
  const target = ride.status === 'ACCEPTED' ? pickup : drop;
  // The service routes it with each position (the router that quoted the fare); none until the next one after a reload.
  const eta = following && driverAt?.rideId === ride.id ? driverAt.etaMinutes : null;

  const markers = useMemo(() => {
    const list: MapMarker[] = [];
    if (pickup) list.push({ id: 'pickup', kind: 'pickup', label: t('map.pickupAt', { place: ride.pickupLocation ?? t('common.aPinnedPoint') }), ...pickup });
    ride.stops.forEach((stop, i) => list.push({ id: `stop-${i}`, kind: 'drop', label: t('map.stopAt', { n: i + 1, place: stop.place ?? t('common.aPinnedPoint') }), lat: stop.lat, lon: stop.lon }));
    if (drop) list.push({ id: 'drop', kind: 'drop', label: t('map.dropAt', { place: ride.dropLocation ?? t('common.aPinnedPoint') }), ...drop });
    if (driver) list.push({ id: 'driver', kind: 'driver', label: t('map.yourDriver'), lat: driver.lat, lon: driver.lon });
    return list;
    // The points are rebuilt each render; their numbers decide.
  }, [ride.pickupLat, ride.pickupLon, ride.dropLat, ride.dropLon, ride.stops.length, driver?.lat, driver?.lon]);

  const open = ride.status === 'REQUESTED' || following;

  return (
    <section class="stack" aria-labelledby="ride-title">
      <div class="row spread">
        <h2 id="ride-title" data-status={ride.status}>
          {STATUS_LABELS[ride.status]}
        </h2>
        <span class="muted">{t('ride.number', { id: ride.id })}</span>
      </div>
      {ride.scheduledAt && (
        <p class="muted" data-testid="scheduled-at">
          {t('ride.bookedFor', { time: dateTimeOf(ride.scheduledAt) })}
        </p>
      )}
      {ride.status === 'REQUESTED' && ride.scheduledAt && ride.driverId !== null && <Notice>{t('ride.takenAhead')}</Notice>}
      {ride.status === 'REQUESTED' && ride.scheduledAt && ride.driverId === null && <Notice>{t('ride.lookAhead')}</Notice>}
      {ride.status === 'REQUESTED' && !ride.scheduledAt && <Notice>{t('ride.asking')}</Notice>}
      {ride.noDriverFoundAt && ride.status === 'REQUESTED' && <Notice kind="warn">{t('ride.noDriver')}</Notice>}
      {eta !== null && (
        <p class="eta" role="status" data-testid="eta">
          {t(ride.status === 'ACCEPTED' ? 'ride.driverArrives' : 'ride.youArrive', { minutes: minutes(eta) })}
        </p>
      )}
      {following && ride.driverName !== undefined && <DriverCard ride={ride} />}
      {following && <SosButton rideId={ride.id} />}
      {following && <CallButton rideId={ride.id} callee="driver" />}
      {following && <ShareTrip ride={ride} />}
      <MapView label={t('ride.mapLabel')} markers={markers} line={driver && target ? [driver, target] : undefined} />
      {(ride.status === 'REQUESTED' || ride.status === 'ACCEPTED') && ride.startOtp && (
        <div class="card">
          <h3>{t('ride.startCode')}</h3>
          <p class="code" data-testid="start-code">
            {ride.startOtp}
          </p>
          <p class="muted flush">{t('ride.startCodeHint')}</p>
        </div>
      )}
      {ride.status === 'PICKED' && ride.endOtp && (
        <div class="card">
          <h3>{t('ride.endCode')}</h3>
          <p class="code" data-testid="end-code">
            {ride.endOtp}
          </p>
          <p class="muted flush">{t('ride.endCodeHint')}</p>
        </div>
      )}
      <div class="card">
        <Facts
          items={[
            [t('ride.from'), ride.pickupLocation ?? '—'],
            [t('ride.to'), ride.dropLocation ?? '—'],
            [t('ride.type'), RIDE_TYPE_LABELS[ride.rideType]],
            [t('ride.fare'), money(ride.fare)],
            [t('ride.payment'), PAYMENT_MODE_LABELS[ride.paymentMode as keyof typeof PAYMENT_MODE_LABELS] ?? ride.paymentMode],
            [t('ride.booked'), timeOf(ride.createdAt)],
          ]}
        />
      </div>
      <StopList ride={ride} />
      {following && <ChangeDestination ride={ride} onRide={onRide} />}
      {ride.status === 'ACCEPTED' && arrivedAtOf(ride) && <WaitingClock ride={ride} arrivedAt={arrivedAtOf(ride)!} />}
      {open && <AddedCharges charges={chargesOf(ride)} />}
      {fareBreakdownOf(ride) && <FareBreakdownCard breakdown={fareBreakdownOf(ride)!} done={!open} />}
      {ride.status === 'CANCELLED' && (
        <Notice kind="warn">
          {t('ride.cancelled', { by: ride.cancelledBy ?? '' })}{' '}
          {ride.cancellationFee ? t('ride.cancellationFee', { fee: money(ride.cancellationFee) }) : t('ride.noFee')}
        </Notice>
      )}
      {(ride.status === 'COMPLETED' || (ride.status === 'CANCELLED' && ride.cancellationFee)) && <PaymentPanel checkoutUrl={checkoutUrl} ride={ride} onRide={onRide} />}
      {hasReceipt(ride) && <ReceiptCard ride={ride} viewer="rider" />}
      {ride.status === 'COMPLETED' && <RatingForm ride={ride} onRide={onRide} />}
      {open ? (
        <button type="button" class="danger" onClick={() => setCancelling(true)}>
          {t('ride.cancel')}
        </button>
      ) : (
        <button type="button" class="wide" onClick={onDone}>
          {t('ride.bookAnother')}
        </button>
      )}
      {cancelling && <CancelDialog ride={ride} onCancelled={onRide} onClose={() => setCancelling(false)} />}
    </section>
  );
}
