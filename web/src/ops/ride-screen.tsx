import { useEffect, useState } from 'preact/hooks';
import type { AdminRide, RideStatus } from '../api/types.ts';
import { ErrorNotice, Facts, Field, Notice } from '../ui/components.tsx';
import { dateTimeOf, km, minutes, money } from '../ui/format.ts';
import { RIDE_TYPE_LABELS, STATUS_LABELS } from '../ui/labels.ts';
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
        <h2 id="ride-title">Ride {rideId}</h2>
        <a href="#/rides">All rides</a>
      </div>
      <ErrorNotice message={load.error} />
      {done && <Notice>{done}</Notice>}
      {ride && (
        <>
          <div class="card stack">
            <Facts
              items={[
                ['Status', `${ride.status} · ${STATUS_LABELS[ride.status]}`],
                ['Rider', `${ride.riderName ?? ''} (${ride.riderId})`],
                ['Driver', ride.driverId === null ? 'none yet' : `${ride.driverName ?? ''} (${ride.driverId})`],
                ['Trip', `${ride.pickupLocation ?? 'pinned point'} → ${ride.dropLocation ?? 'pinned point'}`],
                ['Type', `${RIDE_TYPE_LABELS[ride.rideType]} · ${km(ride.distanceKm)} · ${minutes(ride.durationMinutes)}`],
                ['Fare', `${money(ride.fare)}${ride.surgeMultiplier > 1 ? ` (surge ×${ride.surgeMultiplier})` : ''}`],
                ['Payment', `${ride.paymentMode} · ${ride.paymentStatus ?? 'not paid'}`],
                ['Refunded', money(ride.refundedAmountInInr)],
                ['Booked', dateTimeOf(ride.createdAt)],
                ...(ride.scheduledAt ? ([['Pickup booked for', dateTimeOf(ride.scheduledAt)]] as Array<[string, string]>) : []),
                ...(ride.destinationChanges ?? []).map((change, i): [string, string] => [
                  `Destination change ${i + 1}`,
                  `to ${change.dropLocation ?? 'a pinned point'} at ${dateTimeOf(change.confirmedAt)}: ${money(change.previousFare)} → ${money(change.fare)}`,
                ]),
              ]}
            />
            {!FINISHED.has(ride.status) && (
              <button type="button" class="danger" onClick={() => setCancelling(true)}>
                Cancel ride
              </button>
            )}
          </div>
          <StopList ride={ride} />
          <div class="card stack">
            <h3 class="flush">Timeline</h3>
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
          title={`Cancel ride ${ride.id}?`}
          confirmLabel="Cancel the ride"
          reasonLabel="Reason"
          reasonHint="The rider and the driver read it. The rider pays no fee; an online payment is refunded."
          danger
          onConfirm={async (reason) => {
            await api.admin.cancelRide(ride.id, { reason });
            setDone(`Ride ${ride.id} cancelled.`);
            await load.run();
          }}
          onClose={() => setCancelling(false)}
        >
          <p class="flush">
            {ride.status} ride of {ride.riderName ?? `rider ${ride.riderId}`}, {money(ride.fare)}.
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
    onRefunded(`Refund of ${money(Number(amount))} asked for; ${money(result.refundedAmountInInr)} refunded for this ride so far.`);
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
        Refund
      </h3>
      <p class="muted flush">Through the payment provider, out of what the rider paid online for this ride.</p>
      <div class="toolbar">
        <Field label="Amount in rupees">
          <input name="amount" type="number" min={1} step={1} required value={amount} onInput={(event) => setAmount(event.currentTarget.value)} />
        </Field>
        <Field label="Reason for the refund">
          <input name="refund-reason" required value={reason} onInput={(event) => setReason(event.currentTarget.value)} />
        </Field>
      </div>
      <ErrorNotice message={refund.error} />
      <button type="submit" disabled={refund.busy}>
        {refund.busy ? 'Refunding…' : 'Refund'}
      </button>
    </form>
  );
}
