import { useEffect, useState } from 'preact/hooks';
import type { PublicRide, Ride, UpcomingRides } from '../api/types.ts';
import { ErrorNotice, Notice } from '../ui/components.tsx';
import { dateTimeOf, km, minutes, money } from '../ui/format.ts';
import { RIDE_TYPE_LABELS } from '../ui/labels.ts';
import { useAction } from '../ui/use-action.ts';
import { useApi } from '../ui/app-context.tsx';

// Rides booked ahead (GET /drivers/me/upcoming): the ones the driver could take near where they are,
// and the ones they took. Taking one holds it for them; they must be online 15 minutes before.

function Trip({ ride }: { ride: PublicRide | Ride }) {
  return (
    <span>
      <strong>{dateTimeOf(ride.scheduledAt!)}</strong> · {RIDE_TYPE_LABELS[ride.rideType]} · {money(ride.fare)}
      <br />
      {ride.pickupLocation ?? 'Pinned point'} → {ride.dropLocation ?? 'pinned point'} ({km(ride.distanceKm)}, {minutes(ride.durationMinutes)})
    </span>
  );
}

export function UpcomingScreen() {
  const api = useApi();
  const [upcoming, setUpcoming] = useState<UpcomingRides | null>(null);
  const load = useAction(async () => setUpcoming(await api.upcoming.list()));
  const take = useAction(async (rideId: number) => {
    await api.upcoming.accept(rideId);
    setUpcoming(await api.upcoming.list());
  });
  useEffect(() => void load.run(), [api]);
  return (
    <section class="stack" aria-labelledby="upcoming-title">
      <h2 id="upcoming-title">Upcoming rides</h2>
      <ErrorNotice message={load.error || take.error} />
      {upcoming && (
        <div class="card stack" aria-label="Rides you took">
          <h3 class="flush">Yours</h3>
          {upcoming.taken.length === 0 && <p class="muted flush">None yet. Be online 15 minutes before each one you take, or it goes to another driver.</p>}
          <ul class="flush">
            {upcoming.taken.map((ride) => (
              <li key={ride.id} data-ride={ride.id}>
                <Trip ride={ride} />
              </li>
            ))}
          </ul>
        </div>
      )}
      {upcoming && (
        <div class="card stack" aria-label="Rides you could take">
          <h3 class="flush">Booked ahead near you</h3>
          {upcoming.open.length === 0 && <Notice>No ride booked ahead near you. Go online to see the ones near where you are.</Notice>}
          <ul class="flush stack">
            {upcoming.open.map((ride) => (
              <li key={ride.id} data-ride={ride.id} class="stack">
                <Trip ride={ride} />
                <button type="button" disabled={take.busy} onClick={() => void take.run(ride.id)}>
                  Take ride {ride.id}
                </button>
              </li>
            ))}
          </ul>
        </div>
      )}
    </section>
  );
}
