import { useEffect, useRef, useState } from 'preact/hooks';
import type { CancellationQuote, Ride } from '../api/types.ts';
import { useApi } from './app-context.tsx';
import { ErrorNotice } from './components.tsx';
import { money } from './format.ts';
import { useAction } from './use-action.ts';
import type { VNode } from 'preact';
import { rich, t } from '../i18n/i18n.ts';

export interface Quote {
  /** What cancelling now would cost the caller; null until the service has answered. */
  quote: CancellationQuote | null;
  /** Why the service could not say (the cancellation itself still shows the fee it charged). */
  error: string;
}

/**
 * Asks the service what cancelling the ride now would cost the user (GET /rides/cancel/{id}), again
 * whenever the ride's status changes: a driver accepting while the question is open makes it cost.
 */
export function useCancellationQuote(ride: Ride): Quote {
  const api = useApi();
  const [quote, setQuote] = useState<CancellationQuote | null>(null);
  // Only the newest question's answer counts: an older one may describe the status before.
  const asked = useRef(0);
  const load = useAction(async () => {
    const ask = ++asked.current;
    setQuote(null);
    const answer = await api.rides.cancellationQuote(ride.id);
    if (ask === asked.current) setQuote(answer);
  });
  // A ride that just ended (cancelled by this very dialog, say) has nothing left to quote: the service would answer 409.
  const finished = ride.status === 'COMPLETED' || ride.status === 'CANCELLED';
  useEffect(() => {
    if (!finished) void load.run();
  }, [ride.id, ride.status]);
  return { quote, error: load.error };
}

/** The fee as the service quoted it, in words, before the user confirms. */
export function CancellationFee({ quote, error }: Quote) {
  if (error) return <ErrorNotice message={t('cancelFee.error', { error })} />;
  const fee = quote?.cancellationFee;
  return (
    <p class="flush" role="status" data-testid="cancellation-fee">
      {!quote && t('cancelFee.checking')}
      {quote && !fee && t('cancelFee.free')}
      {quote && !!fee && rich<VNode>('cancelFee.costs', { fee: money(fee), b: (chunks) => <strong>{chunks}</strong> })}
    </p>
  );
}
