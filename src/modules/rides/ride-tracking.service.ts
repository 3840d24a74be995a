import type { UserHub } from '../../events.ts';
import type { AuthUser } from '../../platform/auth/roles.ts';
import { toIso } from '../../platform/clock.ts';
import { conflict, notFound } from '../../platform/errors.ts';
import type { DriverPosition } from '../../platform/geo/driver-index.ts';
import type { Point } from '../../platform/geo/geo.ts';
import type { DriversService } from '../drivers/drivers.service.ts';
import type { SettingsService } from '../settings/settings.service.ts';
import { assertDriverOf, livePosition, publicPositionVisible } from './ride-access.ts';
import type { ArrivalNotices } from './ride-arrival.ts';
import type { RideEtas } from './ride-etas.ts';
import type { RideSnapshots } from './ride-snapshots.ts';
import type { RideStops } from './ride-stops.service.ts';
import type { TripMeter } from './trip-meter.ts';
import { toRideStatus } from './ride-views.ts';
import type { RideSnapshot } from './rides.repository.ts';
import type { LocationResponse, RideStatus, RideStatusView } from './rides.schemas.ts';

export interface TrackingDependencies {
  snapshots: RideSnapshots;
  drivers: Pick<DriversService, 'reportPosition' | 'lastKnown'>;
  settings: Pick<SettingsService, 'sharesTrips'>;
  arrival: ArrivalNotices;
  meter: Pick<TripMeter, 'onPosition'>;
  stops: Pick<RideStops, 'onPosition'>;
  hub: UserHub;
  etas: Pick<RideEtas, 'of'>;
}

/**
 * Following a ride: the driver's position reports (the hot path: no database on the way, the
 * position belongs to the drivers module), the rider's live position messages, the one arrival
 * notice, and the public status anyone may poll.
 */
export class RideTracking {
  readonly #deps: TrackingDependencies;
  /** Per ride, the last position on its way to the rider: the next waits for it, so they arrive in order. */
  readonly #toRider = new Map<number, Promise<void>>();

  constructor(deps: TrackingDependencies) {
    this.#deps = deps;
  }

  /** POST /rides/location/{id}: the ride's driver reports where they are. */
  async report(user: AuthUser, id: number, point: Point): Promise<LocationResponse> {
    const ride = await this.#deps.snapshots.get(id);
    if (!ride) throw notFound(`Ride ${id} not found`);
    assertDriverOf(user, ride, 'report its location');
    if (!livePosition(ride.status)) {
      throw conflict(`Ride ${id} is ${ride.status}; locations are taken while it is ACCEPTED or PICKED`, 'RIDE_NOT_ACTIVE');
    }
    const driverId = ride.driver_id!;
    // Through drivers, like every position: the rider hears it and the arrival notice is claimed on
    // driver.positioned (followPosition), before reportPosition returns.
    const reported = await this.#deps.drivers.reportPosition(driverId, point);
    const at = toIso(reported.updatedAt);
    return { id, status: ride.status as RideStatus, riderId: ride.rider_id, driverId, driverLat: reported.lat, driverLon: reported.lon, driverLocationUpdatedAt: at };
  }

  /**
   * On `driver.positioned`, whichever door the position came in by (PUT /drivers/me/location, this
   * ride's report, the realtime channel): the ride the driver is on, if any, follows it.
   */
  async followPosition(position: DriverPosition): Promise<void> {
    const ride = await this.#deps.snapshots.activeRideOf(position.driverId);
    if (ride) await this.#onTheRide(ride, position);
  }

  /** The rider follows the position live; the first one within 300 m of the pickup tells them once. */
  async #onTheRide(ride: RideSnapshot, reported: Point & { updatedAt: number }): Promise<void> {
    // Not waited for: the report's answer (and its arrival check) need not wait for the fan-out.
    if (this.#deps.hub.reaches(ride.rider_id)) this.#tellRider(ride, reported);
    // Each answers a promise only when the position makes it write (most positions: none of them).
    const arrival = this.#deps.arrival.onPosition(ride, reported);
    const meter = this.#deps.meter.onPosition(ride, reported);
    const stops = this.#deps.stops.onPosition(ride, reported);
    if (arrival || meter || stops) await Promise.all([arrival, meter, stops]);
  }

  /** Sends the position with its ETA, after the ride's previous one (routing one may take longer than the next report). */
  #tellRider(ride: RideSnapshot, reported: Point & { updatedAt: number }): void {
    const previous = this.#toRider.get(ride.id) ?? Promise.resolve();
    const sent = previous.then(async () => {
      const etaMinutes = await this.#deps.etas.of(ride, reported);
      const at = toIso(reported.updatedAt);
      // A message the hub could not send is the hub's to announce: the rider's client is told to resync.
      await this.#deps.hub.send(ride.rider_id, 'ride.position', { rideId: ride.id, lat: reported.lat, lon: reported.lon, at, etaMinutes });
    }).catch(() => {});
    this.#toRider.set(ride.id, sent);
    void sent.then(() => {
      if (this.#toRider.get(ride.id) === sent) this.#toRider.delete(ride.id);
    });
  }

  /** The minutes from `from` to where the ride is headed, as its rider hears them with each position (the share page shows the same). */
  async etaOf(rideId: number, from: Point): Promise<number | null> {
    const ride = await this.#deps.snapshots.get(rideId);
    return ride ? this.#deps.etas.of(ride, from) : null;
  }

  /** What anyone may follow of a ride: no places, and the driver's position only while it is public. */
  async publicStatus(id: number): Promise<RideStatusView> {
    const ride = await this.#deps.snapshots.get(id);
    if (!ride) throw notFound(`Ride ${id} not found`);
    const sharing = ride.status === 'PICKED' && (await this.#deps.settings.sharesTrips(ride.rider_id));
    const visible = ride.driver_id !== null && publicPositionVisible(ride.status, sharing);
    return toRideStatus(ride, visible ? await this.#deps.drivers.lastKnown(ride.driver_id!) : undefined, sharing);
  }
}
