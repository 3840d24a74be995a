import { useEffect, useState } from 'preact/hooks';
import type { Paged } from '../api/client.ts';
import type { LiveDrivers, LiveDriverState, Overview, PublicRide, ZonesResponse } from '../api/types.ts';
import { ErrorNotice } from '../ui/components.tsx';
import { money, secondsOf } from '../ui/format.ts';
import { keysOf, RIDE_TYPE_LABELS, STATUS_LABELS } from '../ui/labels.ts';
import { useAction } from '../ui/use-action.ts';
import { usePolling } from '../ui/use-polling.ts';
import { LiveMap, LiveMapLegend, type View } from './live-map.tsx';
import { INTENSITY_LABELS, LIVE_STATE_LABELS } from './ops-labels.ts';
import { zoneName } from './zone-names.ts';
import { useApi } from '../ui/app-context.tsx';

/** The figures, the map and its lists are read again this often (the overview costs the same with a million rides). */
const REFRESH_MS = 5_000;
/** Drivers asked for per view: far more than a screen can tell apart. */
const DRIVERS_PER_VIEW = 500;
const NOTHING_YET: never[] = [];

/** The service now: today's figures, and a live map of drivers, open requests and surge by zone. */
export function LiveScreen() {
  const api = useApi();
  const [view, setView] = useState<View | null>(null);
  const [overview, setOverview] = useState<Overview | null>(null);
  const [live, setLive] = useState<LiveDrivers | null>(null);
  const [requests, setRequests] = useState<Paged<PublicRide> | null>(null);
  const [zones, setZones] = useState<ZonesResponse | null>(null);

  const readDrivers = useAction(async (around: View) => setLive(await api.admin.liveDrivers({ ...around, limit: DRIVERS_PER_VIEW })));
  const poll = usePolling(async () => {
    const [figures, open, table] = await Promise.all([api.admin.overview(), api.admin.openRequests(), api.admin.zones(), view && readDrivers.run(view)]);
    setOverview(figures);
    setRequests(open);
    setZones(table);
  }, REFRESH_MS);
  // A moved map asks for its drivers at once rather than at the next refresh.
  useEffect(() => {
    if (view) void readDrivers.run(view);
  }, [view]);

  const drivers = live?.drivers ?? NOTHING_YET;
  const open = requests?.items ?? NOTHING_YET;
  const byState = (state: LiveDriverState) => drivers.filter((driver) => driver.state === state).length;
  return (
    <section class="stack" aria-labelledby="live-title">
      <div class="row spread">
        <h2 id="live-title">Live</h2>
        <span class="muted">{overview ? `Updated ${secondsOf(overview.generatedAt)}, every ${REFRESH_MS / 1000} s` : 'Loading…'}</span>
      </div>
      <ErrorNotice message={poll.error || readDrivers.error} />
      <Figures overview={overview} />
      <LiveMap drivers={drivers} requests={open} zones={zones?.zones ?? NOTHING_YET} onView={setView} />
      <LiveMapLegend />
      <p class="flush" data-testid="map-summary">
        In view: {drivers.length} {drivers.length === 1 ? 'driver' : 'drivers'} ({byState('available')} available, {byState('busy')} on a ride, {byState('not_cleared')} not cleared)
        {live && !live.complete && `, the nearest ${DRIVERS_PER_VIEW} to the middle of the map`}. Open requests on the map: {open.length}
        {requests?.nextCursor && ' (the newest)'}.
      </p>
      <details class="card">
        <summary>Drivers in view, as a list</summary>
        {drivers.length === 0 ? (
          <p class="muted">No driver online in this part of the map.</p>
        ) : (
          <table>
            <caption class="visually-hidden">Drivers in view, nearest to the middle of the map first</caption>
            <thead>
              <tr>
                <th scope="col">Driver</th>
                <th scope="col">State</th>
                <th scope="col">From the middle</th>
              </tr>
            </thead>
            <tbody>
              {drivers.map((driver) => (
                <tr key={driver.driverId}>
                  <td>
                    {driver.name ?? 'Driver'} ({driver.driverId})
                  </td>
                  <td>{LIVE_STATE_LABELS[driver.state]}</td>
                  <td>{driver.distanceKm.toFixed(1)} km</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </details>
      <ZonesTable zones={zones} />
    </section>
  );
}

/** Today's figures, each label with how to read its value from the overview. */
const FIGURES: Array<[string, (overview: Overview) => string]> = [
  ['Open requests', (overview) => String(overview.openRequests)],
  ['Booked ahead', (overview) => `${overview.bookedAhead.waiting} (${overview.bookedAhead.taken} taken)`],
  ['Drivers online', (overview) => String(overview.drivers.online)],
  ['Available', (overview) => String(overview.drivers.available)],
  ['On a ride', (overview) => String(overview.drivers.busy)],
  ['Booked today', (overview) => String(Object.values(overview.ridesToday).reduce((sum, count) => sum + count, 0))],
  ['Cancelled today', (overview) => (overview.cancellationRate === null ? '—' : `${Math.round(overview.cancellationRate * 1000) / 10}%`)],
  ['Completed fares today', (overview) => money(overview.completedFaresInr)],
  ['Paid online today', (overview) => `${money(overview.payments.amountInInr)} (${overview.payments.received})`],
  ['Accept delay, last hour', (overview) => (overview.lastHour.meanAcceptDelaySeconds === null ? '—' : `${overview.lastHour.meanAcceptDelaySeconds} s`)],
  ['Pickup wait, last hour', (overview) => (overview.lastHour.meanPickupMinutes === null ? '—' : `${overview.lastHour.meanPickupMinutes} min`)],
];

/**
 * The figures. Before the first overview arrives their labels stand with "…" for each value, taking
 * the room the figures will take, so the map under them does not jump down when they come (the
 * console's first screen would otherwise shift by a whole screen's height: Lighthouse's layout shift).
 */
function Figures({ overview }: { overview: Overview | null }) {
  const value = (read: (overview: Overview) => string | number) => (overview ? read(overview) : '…');
  return (
    <div class="stack">
      <dl class="figures">
        {FIGURES.map(([label, read]) => (
          <div key={label} class="figure">
            <dt>{label}</dt>
            <dd>{value(read)}</dd>
          </div>
        ))}
      </dl>
      <p class="muted flush" data-testid="available-by-vehicle">
        Available by vehicle:{' '}
        {keysOf(RIDE_TYPE_LABELS)
          .map((type) => `${RIDE_TYPE_LABELS[type].toLowerCase()} ${value((overview) => overview.drivers.availableByVehicle[type])}`)
          .join(' · ')}
      </p>
      {overview && overview.simulationSpeed > 1 && (
        <p class="muted flush">A simulated city at {overview.simulationSpeed}× speed: the last hour and its waits are in its time.</p>
      )}
      <p class="muted flush">
        Today's rides by status now:{' '}
        {keysOf(STATUS_LABELS)
          .map((status) => `${STATUS_LABELS[status].toLowerCase()} ${value((overview) => overview.ridesToday[status])}`)
          .join(' · ')}
      </p>
    </div>
  );
}

/** The heat map's numbers: zones with riders waiting or drivers free, by demand. */
function ZonesTable({ zones }: { zones: ZonesResponse | null }) {
  if (!zones) return null;
  return (
    <div class="card stack">
      <h3 class="flush">Zones and surge</h3>
      {zones.zones.length === 0 ? (
        <p class="flush">No zone has riders waiting or drivers free right now.</p>
      ) : (
        <table>
          <caption class="visually-hidden">Zones by demand</caption>
          <thead>
            <tr>
              <th scope="col">Zone</th>
              <th scope="col">Waiting</th>
              <th scope="col">Free drivers</th>
              <th scope="col">Surge for a booking now</th>
            </tr>
          </thead>
          <tbody>
            {zones.zones.map((zone) => (
              <tr key={zone.zone}>
                <td>
                  {zoneName(zone.zone)}
                  <br />
                  <small class="muted">{zone.zone}</small>
                </td>
                <td>{zone.demand}</td>
                <td>{zone.supply}</td>
                <td>
                  × {zone.multiplier} <span class="muted nowrap">{INTENSITY_LABELS[zone.intensity]}</span>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}
