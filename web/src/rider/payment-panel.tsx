import { parseOnlinePaymentMode } from '../../../src/platform/vocabulary.ts';
import type { Api } from '../api/endpoints.ts';
import type { Ride } from '../api/types.ts';
import { ErrorNotice, Notice } from '../ui/components.tsx';
import { money } from '../ui/format.ts';
import { useAction } from '../ui/use-action.ts';
import { useSession } from '../ui/use-session.ts';
import { payOnline } from './checkout.ts';

/** What the ride still owes (its fare, or the cancellation fee) and how to pay it. */
export function PaymentPanel({ api, ride, onRide }: { api: Api; ride: Ride; onRide: (ride: Ride) => void }) {
  const session = useSession(api.client);
  const owed = ride.status === 'CANCELLED' ? (ride.cancellationFee ?? 0) : ride.fare;
  const online = parseOnlinePaymentMode(ride.paymentMode);
  const pay = useAction(async () => {
    await payOnline(api, { amountInInr: owed, rideId: ride.id, paymentMode: online ?? 'UPI', rideSummary: `Ride ${ride.id}` }, session?.name ?? '');
    onRide({ ...ride, paymentStatus: 'PAID' });
  });
  if (ride.paymentStatus === 'PAID') return <Notice>Paid {money(owed)}. Thank you!</Notice>;
  return (
    <div class="card stack">
      <h3>Payment</h3>
      {ride.status === 'COMPLETED' && !online && <p class="flush">Please pay {money(owed)} in cash to your driver.</p>}
      {(online || ride.status === 'CANCELLED') && (
        <>
          <p class="flush">
            {ride.status === 'CANCELLED' ? 'Cancellation fee' : 'Amount'}: <strong>{money(owed)}</strong>
          </p>
          <button type="button" disabled={pay.busy} onClick={() => void pay.run()}>
            {pay.busy ? 'Opening the payment page…' : `Pay ${money(owed)} online`}
          </button>
        </>
      )}
      {ride.paymentStatus === 'FAILED' && <Notice kind="warn">The last payment failed; you can try again.</Notice>}
      <ErrorNotice message={pay.error} />
    </div>
  );
}
