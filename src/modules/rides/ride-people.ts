import type { AuthService } from '../auth/auth.service.ts';
import type { DriverProfiles, Vehicle } from '../drivers/driver-profiles.service.ts';
import type { VehicleType } from '../drivers/vehicles.ts';
import type { RideRow } from './rides.repository.ts';

/**
 * Who is coming, as a ride's rider sees it once a driver accepted: the driver's name and the
 * vehicle's type, model and plate, so the rider can check the car before getting in. A driver
 * without a vehicle profile (the contract's plain DRIVER) shows a name and no vehicle.
 */
export interface DriverCard {
  driverName: string;
  vehicleType: VehicleType | null;
  vehicleModel: string | null;
  vehicleNumber: string | null;
}

/** The names and vehicles a batch of rides shows: one read of accounts and one of vehicles, however many rides. */
export interface People {
  riderName(row: Pick<RideRow, 'rider_id'>): string | undefined;
  driver(row: Pick<RideRow, 'driver_id'>): DriverCard | undefined;
}

export class RidePeople {
  readonly #users: Pick<AuthService, 'findUsers'>;
  readonly #profiles: Pick<DriverProfiles, 'vehicles'>;

  constructor(deps: { users: Pick<AuthService, 'findUsers'>; profiles: Pick<DriverProfiles, 'vehicles'> }) {
    this.#users = deps.users;
    this.#profiles = deps.profiles;
  }

  async of(rows: ReadonlyArray<Pick<RideRow, 'rider_id' | 'driver_id'>>): Promise<People> {
    const driverIds = rows.flatMap((row) => (row.driver_id === null ? [] : [row.driver_id]));
    const [users, vehicles] = await Promise.all([
      this.#users.findUsers([...rows.map((row) => row.rider_id), ...driverIds]),
      driverIds.length > 0 ? this.#profiles.vehicles(driverIds) : new Map<number, Vehicle>(),
    ]);
    return {
      riderName: (row) => users.get(row.rider_id)?.name,
      driver: (row) => {
        const name = row.driver_id === null ? undefined : users.get(row.driver_id)?.name;
        if (name === undefined) return undefined;
        const vehicle = vehicles.get(row.driver_id!);
        return { driverName: name, vehicleType: vehicle?.vehicleType ?? null, vehicleModel: vehicle?.vehicleModel ?? null, vehicleNumber: vehicle?.vehicleNumber ?? null };
      },
    };
  }
}
