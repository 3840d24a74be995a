import { RIDE_TYPES, type RideType } from '../../platform/vocabulary.ts';

/** Vehicle kinds share the ride types' names: a `sedan` is the vehicle of a `sedan` ride. */
export const VEHICLE_TYPES = RIDE_TYPES;
export type VehicleType = RideType;

/**
 * Which rides each vehicle may take: its own type, and smaller car types as an upgrade for the
 * rider (never the reverse: a bike never takes an SUV booking). The one table dispatch uses.
 */
export const SERVES: Record<VehicleType, readonly RideType[]> = {
  bike: ['bike'],
  auto: ['auto'],
  mini: ['mini'],
  sedan: ['sedan', 'mini'],
  suv: ['suv', 'sedan', 'mini'],
};

/** The vehicle types whose drivers may be offered a ride of this type. */
export function vehiclesServing(rideType: RideType): VehicleType[] {
  return VEHICLE_TYPES.filter((vehicle) => SERVES[vehicle].includes(rideType));
}

/** One of something for each vehicle type (dispatch keeps an index of available drivers per vehicle). */
export function byVehicle<T>(make: (vehicle: VehicleType) => T): Record<VehicleType, T> {
  return Object.fromEntries(VEHICLE_TYPES.map((vehicle) => [vehicle, make(vehicle)])) as Record<VehicleType, T>;
}
