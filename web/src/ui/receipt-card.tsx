import { useEffect, useState } from 'preact/hooks';
import type { Ride, SignedReceipt } from '../api/types.ts';
import { useApi } from './app-context.tsx';
import { ErrorNotice, Facts } from './components.tsx';
import { money } from './format.ts';
import { FARE_PART_LABELS } from './labels.ts';
import { useAction } from './use-action.ts';
import type { VNode } from 'preact';
import { rich, t } from '../i18n/i18n.ts';

// A finished ride's signed receipt (GET /rides/{id}/receipt), for its rider and its driver: the parts
// of the fare, who gets what, and the signed document to download and check (npm run verify-receipt).

/** Whether a ride has a receipt: completed, or cancelled by its rider with a fee. */
export const hasReceipt = (ride: Pick<Ride, 'status' | 'cancellationFee'>) => ride.status === 'COMPLETED' || (ride.status === 'CANCELLED' && (ride.cancellationFee ?? 0) > 0);

export function ReceiptCard({ ride, viewer }: { ride: Ride; viewer: 'rider' | 'driver' }) {
  const api = useApi();
  const [signed, setSigned] = useState<SignedReceipt | null>(null);
  const load = useAction(async () => setSigned(await api.rides.receipt(ride.id)));
  useEffect(() => void load.run(), [ride.id, ride.status]);
  if (!signed) return <ErrorNotice message={load.error} />;
  const { receipt } = signed;
  const share = `${Math.round(receipt.driverShare * 100)} %`;
  return (
    <div class="card stack" aria-label={t('receipt.aria')} data-testid="receipt">
      <h3 class="flush">{receipt.kind === 'trip' ? t('receipt.trip') : t('receipt.fee')}</h3>
      <Facts
        items={[
          ...receipt.breakdown.map((part): [string, string] => [FARE_PART_LABELS[part.part] ?? part.part, money(part.amountInInr)]),
          [t('fare.total'), money(receipt.fare)],
        ]}
      />
      <p class="muted flush">
        {viewer === 'driver'
          ? t(receipt.inputs.tollsInInr + receipt.inputs.parkingInInr > 0 ? 'receipt.driverShareTolls' : 'receipt.driverShare', { amount: money(receipt.driverAmountInInr), share, fee: money(receipt.platformFeeInInr) })
          : t('receipt.riderSplit', { amount: money(receipt.driverAmountInInr), fee: money(receipt.platformFeeInInr) })}{' '}
        {t('receipt.version', { version: receipt.pricingVersion })}
      </p>
      <p class="muted flush">
        {rich<VNode>('receipt.check', {
          file: `receipt-ride-${receipt.rideId}.json`,
          link: (chunks) => (
            <a href={`data:application/json,${encodeURIComponent(JSON.stringify(signed, null, 2))}`} download={`receipt-ride-${receipt.rideId}.json`}>
              {chunks}
            </a>
          ),
          code: (chunks) => <code>{chunks}</code>,
        })}
      </p>
    </div>
  );
}
