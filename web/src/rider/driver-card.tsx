import type { ComponentChildren } from 'preact';
import type { Ride, RideType } from '../api/types.ts';
import { Facts } from '../ui/components.tsx';
import { RIDE_TYPE_LABELS } from '../ui/labels.ts';

/** Who is coming: the driver's name, their vehicle and its plate, for the rider to check before getting in. */
export function DriverCard({ ride }: { ride: Ride }) {
  const vehicle = [ride.vehicleType && RIDE_TYPE_LABELS[ride.vehicleType as RideType], ride.vehicleModel].filter(Boolean).join(' · ');
  const items: Array<[string, ComponentChildren]> = [['Driver', ride.driverName]];
  if (vehicle) items.push(['Vehicle', vehicle]);
  if (ride.vehicleNumber) items.push(['Plate', <strong data-testid="plate">{ride.vehicleNumber}</strong>]);
  return (
    <div class="card" aria-labelledby="driver-title">
      <h3 id="driver-title">Your driver</h3>
      <Facts items={items} />
      {ride.vehicleNumber && ride.status === 'ACCEPTED' && <p class="muted flush">Check the plate before you get in.</p>}
    </div>
  );
}
