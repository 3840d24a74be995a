import { useEffect, useState } from 'preact/hooks';
import type { Ride, SignedReceipt } from '../api/types.ts';
import { useApi } from './app-context.tsx';
import { ErrorNotice, Facts } from './components.tsx';
import { money } from './format.ts';
import { FARE_PART_LABELS } from './labels.ts';
import { useAction } from './use-action.ts';

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
    <div class="card stack" aria-label="Receipt" data-testid="receipt">
      <h3 class="flush">{receipt.kind === 'trip' ? 'Receipt' : 'Cancellation fee receipt'}</h3>
      <Facts
        items={[
          ...receipt.breakdown.map((part): [string, string] => [FARE_PART_LABELS[part.part] ?? part.part, money(part.amountInInr)]),
          ['Total', money(receipt.fare)],
        ]}
      />
      <p class="muted flush">
        {viewer === 'driver'
          ? `Yours: ${money(receipt.driverAmountInInr)} (${share} of the fare${receipt.inputs.tollsInInr + receipt.inputs.parkingInInr > 0 ? ', and all tolls and parking' : ''}); platform fee ${money(receipt.platformFeeInInr)}.`
          : `Your driver gets ${money(receipt.driverAmountInInr)}; the platform keeps ${money(receipt.platformFeeInInr)}.`}{' '}
        Priced by pricing version {receipt.pricingVersion}.
      </p>
      <p class="muted flush">
        Signed by the service, so anyone can check it:{' '}
        <a href={`data:application/json,${encodeURIComponent(JSON.stringify(signed, null, 2))}`} download={`receipt-ride-${receipt.rideId}.json`}>
          download the signed receipt
        </a>{' '}
        and run <code>npm run verify-receipt -- receipt-ride-{receipt.rideId}.json</code>.
      </p>
    </div>
  );
}
