import { useEffect, useState } from 'preact/hooks';
import type { AdminRide, PaymentMode, RideStatus } from '../api/types.ts';
import { t } from '../i18n/i18n.ts';
import { ErrorNotice, Facts, Field, Notice } from '../ui/components.tsx';
import { dateTimeOf, km, minutes, money } from '../ui/format.ts';
import { PAYMENT_MODE_LABELS, RIDE_TYPE_LABELS, STATUS_LABELS } from '../ui/labels.ts';
import { useAction } from '../ui/use-action.ts';
import { ConfirmDialog } from './confirm-dialog.tsx';
import { describeEvent } from './timeline.ts';
import { useApi } from '../ui/app-context.tsx';
import { StopList } from '../ui/stop-list.tsx';

const FINISHED = new Set<RideStatus>(['COMPLETED', 'CANCELLED']);

/** One ride: everything about it, what happened to it in order, and the operator's cancel and refund. */
export function RideScreen({ rideId }: { rideId: number }) {
  const api = useApi();
  const [ride, setRide] = useState<AdminRide | null>(null);
  const [cancelling, setCancelling] = useState(false);
  const [done, setDone] = useState('');
  const load = useAction(async () => setRide(await api.admin.ride(rideId)));
  useEffect(() => void load.run(), [api, rideId]);

  return (
    <section class="stack" aria-labelledby="ride-title">
      <div class="row spread">
        <h2 id="ride-title">{t('ops.rideLink', { id: rideId })}</h2>
        <a href="#/rides">{t('ops.ride.all')}</a>
      </div>
      <ErrorNotice message={load.error} />
      {done && <Notice>{done}</Notice>}
      {ride && (
        <>
          <div class="card stack">
            <Facts
              items={[
                [
                  t('ops.ride.status'),
                  <>
                    {STATUS_LABELS[ride.status]} (<code>{ride.status}</code>)
                  </>,
                ],
                [t('ops.ride.rider'), t('ops.driverNamed', { name: ride.riderName ?? '', id: ride.riderId })],
                [t('ops.ride.driver'), ride.driverId === null ? t('ops.ride.noDriver') : t('ops.driverNamed', { name: ride.driverName ?? '', id: ride.driverId })],
                [t('ops.ride.trip'), `${ride.pickupLocation ?? t('common.aPinnedPoint')} → ${ride.dropLocation ?? t('common.aPinnedPoint')}`],
                [t('ops.ride.type'), `${RIDE_TYPE_LABELS[ride.rideType]} · ${km(ride.distanceKm)} · ${minutes(ride.durationMinutes)}`],
                [t('ops.ride.fare'), ride.surgeMultiplier > 1 ? t('ops.ride.surge', { fare: money(ride.fare), multiplier: ride.surgeMultiplier }) : money(ride.fare)],
                [
                  t('ops.ride.payment'),
                  <>
                    {PAYMENT_MODE_LABELS[ride.paymentMode as PaymentMode] ?? ride.paymentMode} · {ride.paymentStatus ? <code>{ride.paymentStatus}</code> : t('ops.ride.notPaid')}
                  </>,
                ],
                [t('ops.ride.refunded'), money(ride.refundedAmountInInr)],
                [t('ops.ride.booked'), dateTimeOf(ride.createdAt)],
                ...(ride.scheduledAt ? ([[t('ops.ride.pickupFor'), dateTimeOf(ride.scheduledAt)]] as Array<[string, string]>) : []),
                ...(ride.destinationChanges ?? []).map((change, i): [string, string] => [
                  t('ops.ride.destinationChange', { n: i + 1 }),
                  t('ops.ride.destinationTo', {
                    place: change.dropLocation ?? t('ops.ride.aPinnedPoint'),
                    time: dateTimeOf(change.confirmedAt),
                    before: money(change.previousFare),
                    after: money(change.fare),
                  }),
                ]),
              ]}
            />
            {!FINISHED.has(ride.status) && (
              <button type="button" class="danger" onClick={() => setCancelling(true)}>
                {t('ops.ride.cancel')}
              </button>
            )}
          </div>
          <StopList ride={ride} />
          <div class="card stack">
            <h3 class="flush">{t('ops.ride.timeline')}</h3>
            <ol class="timeline">
              {ride.timeline.map((entry, index) => (
                <li key={index}>
                  <time dateTime={entry.at}>{dateTimeOf(entry.at)}</time> {describeEvent(entry)}
                </li>
              ))}
            </ol>
          </div>
          <RefundForm
            // A fresh form (no stale refusal) once the ride's refunds changed, by this form or a cancellation.
            key={ride.refundedAmountInInr}
            rideId={rideId}
            onRefunded={(text) => {
              setDone(text);
              void load.run();
            }}
          />
        </>
      )}
      {cancelling && ride && (
        <ConfirmDialog
          title={t('ops.ride.cancelTitle', { id: ride.id })}
          confirmLabel={t('ops.ride.cancelConfirm')}
          reasonLabel={t('ops.reason')}
          reasonHint={t('ops.ride.cancelHint')}
          danger
          onConfirm={async (reason) => {
            await api.admin.cancelRide(ride.id, { reason });
            setDone(t('ops.ride.cancelled', { id: ride.id }));
            await load.run();
          }}
          onClose={() => setCancelling(false)}
        >
          <p class="flush">
            {t('ops.ride.cancelWhat', { status: STATUS_LABELS[ride.status], rider: ride.riderName ?? t('ops.ride.riderNumber', { id: ride.riderId }), fare: money(ride.fare) })}
          </p>
        </ConfirmDialog>
      )}
    </section>
  );
}

/** An operator's refund through the provider: the API says what it cannot refund (nothing paid online, more than was paid). */
function RefundForm({ rideId, onRefunded }: { rideId: number; onRefunded: (text: string) => void }) {
  const api = useApi();
  const [amount, setAmount] = useState('');
  const [reason, setReason] = useState('');
  const refund = useAction(async () => {
    const result = await api.admin.refund(rideId, { amountInInr: Number(amount), reason: reason.trim() });
    setAmount('');
    setReason('');
    onRefunded(t('ops.refund.done', { amount: money(Number(amount)), total: money(result.refundedAmountInInr) }));
  });
  return (
    <form
      class="card stack"
      aria-labelledby="refund-title"
      onSubmit={(event) => {
        event.preventDefault();
        void refund.run();
      }}
    >
      <h3 id="refund-title" class="flush">
        {t('ops.refund.title')}
      </h3>
      <p class="muted flush">{t('ops.refund.note')}</p>
      <div class="toolbar">
        <Field label={t('ops.refund.amount')}>
          <input name="amount" type="number" min={1} step={1} required value={amount} onInput={(event) => setAmount(event.currentTarget.value)} />
        </Field>
        <Field label={t('ops.refund.reason')}>
          <input name="refund-reason" required value={reason} onInput={(event) => setReason(event.currentTarget.value)} />
        </Field>
      </div>
      <ErrorNotice message={refund.error} />
      <button type="submit" disabled={refund.busy}>
        {refund.busy ? t('ops.refund.refunding') : t('ops.refund.title')}
      </button>
    </form>
  );
}
