import { useState } from 'preact/hooks';
import type { Point } from '../../../src/contract/types.ts';
import type { Ride } from '../api/types.ts';
import { pointOf } from '../map/places.ts';
import { CancellationFee, useCancellationQuote } from '../ui/cancellation-fee.tsx';
import { ErrorNotice, Facts, Field, Notice } from '../ui/components.tsx';
import { money } from '../ui/format.ts';
import { PAYMENT_MODE_LABELS, RIDE_TYPE_LABELS, STATUS_LABELS } from '../ui/labels.ts';
import { fareBreakdownOf, FareBreakdownCard } from '../ui/fare-breakdown.tsx';
import { hasReceipt, ReceiptCard } from '../ui/receipt-card.tsx';
import { AddedCharges, arrivedAtOf, chargesOf, WaitingClock } from '../ui/trip-extras.tsx';
import { Stars } from '../ui/stars.tsx';
import { useAction } from '../ui/use-action.ts';
import { livePosition } from '../../../src/contract/rules.ts';
import { useApi } from '../ui/app-context.tsx';
import { CallButton } from '../ui/call-button.tsx';
import { SosButton } from '../ui/sos-button.tsx';
import { nextStopOf, StopList } from '../ui/stop-list.tsx';
import { t } from '../i18n/i18n.ts';

/** Directions in the phone's maps app (Google Maps' universal link opens the app where it is installed). */
const directions = (from: Point | null, to: Point) =>
  `https://www.google.com/maps/dir/?api=1${from ? `&origin=${from.lat},${from.lon}` : ''}&destination=${to.lat},${to.lon}&travelmode=driving`;

interface Props {
  ride: Ride;
  position: Point | null;
  onRide: (ride: Ride | null) => void;
}

/** The accepted ride: drive to the pickup, start with the rider's code, finish with the other, rate. */
export function TripPanel({ ride, position, onRide }: Props) {
  const api = useApi();
  const [code, setCode] = useState('');
  const [confirmCancel, setConfirmCancel] = useState(false);
  const [rating, setRating] = useState(0);
  const step = useAction(async () => {
    const status = ride.status === 'ACCEPTED' ? 'PICKED' : 'COMPLETED';
    onRide(await api.rides.change(ride.id, { status, otp: code.trim() }));
    setCode('');
  });
  const rate = useAction(async () => onRide(await api.rides.feedback(ride.id, { rating, comment: null })));
  // While PICKED the way goes through the stops not yet reached, in order.
  const nextStop = ride.status === 'PICKED' ? nextStopOf(ride) : -1;
  const stop = nextStop >= 0 ? ride.stops[nextStop] : null;
  const reached = useAction(async () => onRide(await api.rides.stopArrived(ride.id, nextStop)));

  const goingTo = ride.status === 'ACCEPTED' ? pointOf(ride.pickupLat, ride.pickupLon) : stop ?? pointOf(ride.dropLat, ride.dropLon);
  const directionsText = ride.status === 'ACCEPTED' ? t('trip.directionsPickup') : stop ? t('trip.directionsStop', { n: nextStop + 1 }) : t('trip.directionsDrop');
  const active = livePosition(ride.status);

  return (
    <div class="stack">
      {active && <SosButton rideId={ride.id} />}
      {active && <CallButton rideId={ride.id} callee="rider" />}
      <div class="card stack">
        <h3 data-status={ride.status}>
          {ride.status === 'ACCEPTED'
            ? t('trip.pickUp', { name: ride.riderName ?? t('trip.yourRider') })
            : ride.status === 'PICKED'
              ? stop
                ? t('trip.driveToStop', { n: nextStop + 1, place: stop.place ?? t('common.aPinnedPoint') })
                : t('trip.driveToDrop')
              : STATUS_LABELS[ride.status]}
        </h3>
        <Facts
          items={[
            [t('offer.pickup'), ride.pickupLocation ?? t('common.pinnedPoint')],
            [t('offer.drop'), ride.dropLocation ?? t('common.pinnedPoint')],
            [t('ride.type'), RIDE_TYPE_LABELS[ride.rideType]],
            [t('ride.fare'), money(ride.fare)],
            [t('ride.payment'), PAYMENT_MODE_LABELS[ride.paymentMode as keyof typeof PAYMENT_MODE_LABELS] ?? ride.paymentMode],
          ]}
        />
        {active && goingTo && (
          <a class="button secondary" href={directions(position, goingTo)} target="_blank" rel="noopener noreferrer">
            {directionsText}
          </a>
        )}
        {stop && (
          <button type="button" disabled={reached.busy} onClick={() => void reached.run()}>
            {t('trip.reachedStop', { n: nextStop + 1 })}
          </button>
        )}
        <ErrorNotice message={reached.error} />
      </div>
      <StopList ride={ride} />
      {ride.status === 'ACCEPTED' && arrivedAtOf(ride) && <WaitingClock ride={ride} arrivedAt={arrivedAtOf(ride)!} />}
      {active && <AddedCharges charges={chargesOf(ride)} />}
      {fareBreakdownOf(ride) && <FareBreakdownCard breakdown={fareBreakdownOf(ride)!} done={!active} />}
      {active && (
        <form
          class="card stack"
          onSubmit={(event) => {
            event.preventDefault();
            void step.run();
          }}
        >
          <Field label={ride.status === 'ACCEPTED' ? t('trip.startCode') : t('trip.endCode')} hint={t('trip.codeHint')}>
            <input name="otp" inputMode="numeric" autocomplete="off" pattern="[0-9]{4}" maxLength={4} required value={code} onInput={(event) => setCode(event.currentTarget.value)} />
          </Field>
          <ErrorNotice message={step.error} />
          <button type="submit" disabled={step.busy}>
            {ride.status === 'ACCEPTED' ? t('trip.start') : t('trip.complete')}
          </button>
        </form>
      )}
      {active &&
        (confirmCancel ? (
          <ConfirmCancel ride={ride} onRide={onRide} onKeep={() => setConfirmCancel(false)} />
        ) : (
          <button type="button" class="secondary" onClick={() => setConfirmCancel(true)}>
            {t('ride.cancel')}
          </button>
        ))}
      {ride.status === 'COMPLETED' && (
        <div class="card stack">
          <Notice>
            {t('trip.completed', { fare: money(ride.fare) })}{' '}
            {ride.paymentMode.toUpperCase() === 'CASH' ? t('trip.collectCash') : ride.paymentStatus === 'PAID' ? t('trip.paidOnline') : t('trip.riderPaysOnline')}
          </Notice>
          {ride.driverRating === null ? (
            <form
              class="stack"
              onSubmit={(event) => {
                event.preventDefault();
                void rate.run();
              }}
            >
              <Stars legend={<h3>{t('trip.howRider')}</h3>} value={rating} onChange={setRating} />
              <button type="submit" disabled={rating === 0 || rate.busy}>
                {rate.busy ? t('rating.sending') : t('rating.send')}
              </button>
            </form>
          ) : (
            <p class="flush">{t('trip.rated', { rating: ride.driverRating })}</p>
          )}
          <ErrorNotice message={rate.error} />
        </div>
      )}
      {hasReceipt(ride) && <ReceiptCard ride={ride} viewer="driver" />}
      {!active && (
        <button type="button" class="wide" onClick={() => onRide(null)}>
          {t('trip.back')}
        </button>
      )}
    </div>
  );
}

/** Asks before the driver cancels, with what the service says cancelling now costs them. */
function ConfirmCancel({ ride, onRide, onKeep }: Pick<Props, 'ride' | 'onRide'> & { onKeep: () => void }) {
  const api = useApi();
  const fee = useCancellationQuote(ride);
  const cancel = useAction(async () => onRide(await api.rides.cancel(ride.id, { reason: 'Cancelled by the driver' })));
  return (
    <div class="card stack">
      <p class="flush">{t('cancel.title')}</p>
      <CancellationFee {...fee} />
      <ErrorNotice message={cancel.error} />
      <div class="row">
        <button type="button" class="danger" disabled={cancel.busy || (!fee.quote && !fee.error)} onClick={() => void cancel.run()}>
          {t('cancel.yes')}
        </button>
        <button type="button" class="secondary" onClick={onKeep}>
          {t('trip.keep')}
        </button>
      </div>
    </div>
  );
}
