import { useEffect, useState } from 'preact/hooks';
import type { Api } from '../api/endpoints.ts';
import type { Ride } from '../api/types.ts';
import { ErrorNotice, Facts } from '../ui/components.tsx';
import { money, timeOf } from '../ui/format.ts';
import { useAction } from '../ui/use-action.ts';
import { useApi, useSession } from '../ui/app-context.tsx';

/** Today's completed rides of this driver, read from the ride history (newest first) until yesterday. */
async function completedToday(api: Api, driverId: number): Promise<Ride[]> {
  const midnight = new Date();
  midnight.setHours(0, 0, 0, 0);
  const today: Ride[] = [];
  let cursor: string | undefined;
  for (;;) {
    const page = await api.rides.history(cursor);
    for (const ride of page.items) {
      if (ride.driverId === driverId && ride.status === 'COMPLETED' && ride.completedAt && Date.parse(ride.completedAt) >= midnight.getTime()) today.push(ride);
    }
    const oldest = page.items.at(-1);
    // A ride booked before midnight may still have ended today; one more page settles it.
    if (!page.nextCursor || !oldest || Date.parse(oldest.createdAt) < midnight.getTime() - 24 * 3600_000) return today;
    cursor = page.nextCursor;
  }
}

export function EarningsScreen() {
  const api = useApi();
  const session = useSession();
  const [rides, setRides] = useState<Ride[] | null>(null);
  const load = useAction(async () => setRides(await completedToday(api, session!.userId)));
  useEffect(() => void load.run(), [api]);
  const total = rides?.reduce((sum, ride) => sum + ride.fare, 0) ?? 0;
  return (
    <section class="stack" aria-labelledby="earnings-title">
      <h2 id="earnings-title">Earnings today</h2>
      <ErrorNotice message={load.error} />
      {rides && (
        <div class="card stack">
          <p class="big flush" data-testid="earnings-total">
            {money(total)}
          </p>
          <p class="muted flush">
            {rides.length} {rides.length === 1 ? 'ride' : 'rides'} completed today (fares before any deductions).
          </p>
        </div>
      )}
      {rides && rides.length > 0 && (
        <div class="card">
          <Facts items={rides.map((ride) => [`${timeOf(ride.completedAt!)} · ${ride.pickupLocation ?? 'Pinned point'} → ${ride.dropLocation ?? 'pinned point'}`, money(ride.fare)])} />
        </div>
      )}
    </section>
  );
}
