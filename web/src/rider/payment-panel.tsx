import { useState } from 'preact/hooks';
import { parseOnlinePaymentMode } from '../../../src/contract/rules.ts';
import type { Ride } from '../api/types.ts';
import { ErrorNotice, Notice } from '../ui/components.tsx';
import { money } from '../ui/format.ts';
import { useAction } from '../ui/use-action.ts';
import { CheckoutUnreachable, payOnline } from './checkout.ts';
import { useApi, useSession } from '../ui/app-context.tsx';
import { t } from '../i18n/i18n.ts';

interface Props {
  /** The provider's checkout script (/app/config.json). */
  checkoutUrl: string;
  ride: Ride;
  onRide: (ride: Ride) => void;
}

/**
 * What the ride still owes (its fare, or the cancellation fee) and how to pay it. Paid shows only
 * once the service says so: the ride.updated message that follows the verified payment. When the
 * online checkout cannot be reached after a ride, the rider may pay the driver in cash instead.
 */
export function PaymentPanel({ checkoutUrl, ride, onRide }: Props) {
  const api = useApi();
  const session = useSession();
  const [verified, setVerified] = useState('');
  const [unreachable, setUnreachable] = useState(false);
  const owed = ride.status === 'CANCELLED' ? (ride.cancellationFee ?? 0) : ride.fare;
  const online = parseOnlinePaymentMode(ride.paymentMode);
  const what = ride.status === 'CANCELLED' ? t('pay.whatFee', { id: ride.id }) : t('pay.whatRide', { id: ride.id, from: ride.pickupLocation ?? t('common.aPinnedPoint'), to: ride.dropLocation ?? t('common.aPinnedPoint') });
  const pay = useAction(async () => {
    setUnreachable(false);
    try {
      setVerified(await payOnline(api, checkoutUrl, { amountInInr: owed, rideId: ride.id, paymentMode: online ?? 'UPI', rideSummary: t('ride.number', { id: ride.id }) }, session?.name ?? '', what));
    } catch (error) {
      if (error instanceof CheckoutUnreachable) setUnreachable(true);
      throw error;
    }
  });
  const cash = useAction(async () => onRide(await api.rides.paymentMode(ride.id, { paymentMode: 'CASH' })));
  if (ride.paymentStatus === 'PAID') {
    return <Notice>{ride.paymentMode === 'CASH' && ride.status === 'COMPLETED' ? t('pay.paidCash', { amount: money(owed) }) : t('pay.paid', { amount: money(owed) })}</Notice>;
  }
  if (verified) return <Notice>{t('pay.verified', { message: verified })}</Notice>;
  // Cash goes to the driver, who is there at the end of a ride; a cancellation fee is paid online only.
  const cashInstead = unreachable && ride.status === 'COMPLETED';
  return (
    <div class="card stack">
      <h3>{t('pay.title')}</h3>
      {ride.status === 'COMPLETED' && !online && <p class="flush">{t('pay.cashPlease', { amount: money(owed) })}</p>}
      {(online || ride.status === 'CANCELLED') && (
        <>
          <p class="flush">
            {ride.status === 'CANCELLED' ? t('pay.fee') : t('pay.amount')}: <strong>{money(owed)}</strong>
          </p>
          <button type="button" disabled={pay.busy || cash.busy} onClick={() => void pay.run()}>
            {pay.busy ? t('pay.paying') : t('pay.online', { amount: money(owed) })}
          </button>
        </>
      )}
      {ride.paymentStatus === 'FAILED' && <Notice kind="warn">{t('pay.failed')}</Notice>}
      <ErrorNotice message={pay.error && (cashInstead ? t('pay.orCash', { error: pay.error }) : unreachable ? t('pay.tryLater', { error: pay.error }) : pay.error)} />
      {cashInstead && (
        <button type="button" class="secondary" disabled={cash.busy} onClick={() => void cash.run()}>
          {cash.busy ? t('pay.switching') : t('pay.cashInstead', { amount: money(owed) })}
        </button>
      )}
      <ErrorNotice message={cash.error} />
    </div>
  );
}
