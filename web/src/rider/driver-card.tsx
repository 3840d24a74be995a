import type { ComponentChildren } from 'preact';
import type { Ride, RideType } from '../api/types.ts';
import { Facts } from '../ui/components.tsx';
import { RIDE_TYPE_LABELS } from '../ui/labels.ts';
import { t } from '../i18n/i18n.ts';

/** Who is coming: the driver's name, their vehicle and its plate, for the rider to check before getting in. */
export function DriverCard({ ride }: { ride: Ride }) {
  const vehicle = [ride.vehicleType && RIDE_TYPE_LABELS[ride.vehicleType as RideType], ride.vehicleModel].filter(Boolean).join(' · ');
  const items: Array<[string, ComponentChildren]> = [[t('driverCard.driver'), ride.driverName]];
  if (vehicle) items.push([t('driverCard.vehicle'), vehicle]);
  if (ride.vehicleNumber) items.push([t('driverCard.plate'), <strong data-testid="plate">{ride.vehicleNumber}</strong>]);
  return (
    <div class="card" aria-labelledby="driver-title">
      <h3 id="driver-title">{t('driverCard.title')}</h3>
      <Facts items={items} />
      {ride.vehicleNumber && ride.status === 'ACCEPTED' && <p class="muted flush">{t('driverCard.checkPlate')}</p>}
    </div>
  );
}
