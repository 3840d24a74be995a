import { useState } from 'preact/hooks';
import { parseOnlinePaymentMode } from '../../../src/platform/vocabulary.ts';
import type { Api } from '../api/endpoints.ts';
import type { Ride } from '../api/types.ts';
import { ErrorNotice, Notice } from '../ui/components.tsx';
import { money } from '../ui/format.ts';
import { useAction } from '../ui/use-action.ts';
import { useSession } from '../ui/use-session.ts';
import { payOnline } from './checkout.ts';

interface Props {
  api: Api;
  /** The provider's checkout script (/app/config.json). */
  checkoutUrl: string;
  ride: Ride;
}

/**
 * What the ride still owes (its fare, or the cancellation fee) and how to pay it. Paid shows only
 * once the service says so: the ride.updated message that follows the verified payment.
 */
export function PaymentPanel({ api, checkoutUrl, ride }: Props) {
  const session = useSession(api.client);
  const [verified, setVerified] = useState('');
  const owed = ride.status === 'CANCELLED' ? (ride.cancellationFee ?? 0) : ride.fare;
  const online = parseOnlinePaymentMode(ride.paymentMode);
  const pay = useAction(async () => {
    setVerified(await payOnline(api, checkoutUrl, { amountInInr: owed, rideId: ride.id, paymentMode: online ?? 'UPI', rideSummary: `Ride ${ride.id}` }, session?.name ?? ''));
  });
  if (ride.paymentStatus === 'PAID') return <Notice>Paid {money(owed)}. Thank you!</Notice>;
  if (verified) return <Notice>{verified}. Your ride shows as paid in a moment.</Notice>;
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
            {pay.busy ? 'Paying…' : `Pay ${money(owed)} online`}
          </button>
        </>
      )}
      {ride.paymentStatus === 'FAILED' && <Notice kind="warn">The last payment failed; you can try again.</Notice>}
      <ErrorNotice message={pay.error} />
    </div>
  );
}
