import { useEffect, useState } from 'preact/hooks';
import type { Paged } from '../api/client.ts';
import type { LiveDrivers, LiveDriverState, Overview, PublicRide, ZonesResponse } from '../api/types.ts';
import { t, type MessageKey } from '../i18n/i18n.ts';
import { ErrorNotice } from '../ui/components.tsx';
import { count, km, minutes, money, percent, secondsOf } from '../ui/format.ts';
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
        <h2 id="live-title">{t('ops.live.title')}</h2>
        <span class="muted">{overview ? t('ops.live.updated', { time: secondsOf(overview.generatedAt), seconds: REFRESH_MS / 1000 }) : t('ops.live.loading')}</span>
      </div>
      <ErrorNotice message={poll.error || readDrivers.error} />
      <Figures overview={overview} />
      <LiveMap drivers={drivers} requests={open} zones={zones?.zones ?? NOTHING_YET} onView={setView} />
      <LiveMapLegend />
      <p class="flush" data-testid="map-summary">
        {t('ops.live.summary', {
          drivers: drivers.length,
          available: byState('available'),
          busy: byState('busy'),
          notCleared: byState('not_cleared'),
          partial: live && !live.complete ? 'yes' : 'no',
          limit: DRIVERS_PER_VIEW,
          requests: open.length,
          newest: requests?.nextCursor ? 'yes' : 'no',
        })}
      </p>
      <details class="card">
        <summary>{t('ops.live.driversList')}</summary>
        {drivers.length === 0 ? (
          <p class="muted">{t('ops.live.noDriver')}</p>
        ) : (
          <table>
            <caption class="visually-hidden">{t('ops.live.driversCaption')}</caption>
            <thead>
              <tr>
                <th scope="col">{t('ops.live.driver')}</th>
                <th scope="col">{t('ops.live.state')}</th>
                <th scope="col">{t('ops.live.fromMiddle')}</th>
              </tr>
            </thead>
            <tbody>
              {drivers.map((driver) => (
                <tr key={driver.driverId}>
                  <td>{t('ops.driverNamed', { name: driver.name ?? t('ops.aDriver'), id: driver.driverId })}</td>
                  <td>{LIVE_STATE_LABELS[driver.state]}</td>
                  <td>{km(driver.distanceKm)}</td>
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

/** Today's figures, each label (its message) with how to read its value from the overview. */
const FIGURES: Array<[MessageKey, (overview: Overview) => string]> = [
  ['ops.figure.openRequests', (overview) => count(overview.openRequests)],
  ['ops.figure.bookedAhead', (overview) => t('ops.figure.bookedAheadValue', { waiting: overview.bookedAhead.waiting, taken: overview.bookedAhead.taken })],
  ['ops.figure.driversOnline', (overview) => count(overview.drivers.online)],
  ['ops.figure.available', (overview) => count(overview.drivers.available)],
  ['ops.figure.onRide', (overview) => count(overview.drivers.busy)],
  ['ops.figure.bookedToday', (overview) => count(Object.values(overview.ridesToday).reduce((sum, rides) => sum + rides, 0))],
  ['ops.figure.cancelledToday', (overview) => (overview.cancellationRate === null ? '—' : percent(overview.cancellationRate))],
  ['ops.figure.completedFares', (overview) => money(overview.completedFaresInr)],
  ['ops.figure.paidOnline', (overview) => `${money(overview.payments.amountInInr)} (${count(overview.payments.received)})`],
  ['ops.figure.acceptDelay', (overview) => (overview.lastHour.meanAcceptDelaySeconds === null ? '—' : t('ops.figure.seconds', { value: overview.lastHour.meanAcceptDelaySeconds }))],
  ['ops.figure.pickupWait', (overview) => (overview.lastHour.meanPickupMinutes === null ? '—' : minutes(overview.lastHour.meanPickupMinutes))],
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
            <dt>{t(label)}</dt>
            <dd>{value(read)}</dd>
          </div>
        ))}
      </dl>
      <p class="muted flush" data-testid="available-by-vehicle">
        {t('ops.figure.availableByVehicle', {
          list: keysOf(RIDE_TYPE_LABELS)
            .map((type) => `${RIDE_TYPE_LABELS[type].toLowerCase()} ${value((overview) => overview.drivers.availableByVehicle[type])}`)
            .join(' · '),
        })}
      </p>
      {overview && overview.simulationSpeed > 1 && <p class="muted flush">{t('ops.figure.simulated', { speed: overview.simulationSpeed })}</p>}
      <p class="muted flush">
        {t('ops.figure.byStatus', {
          list: keysOf(STATUS_LABELS)
            .map((status) => `${STATUS_LABELS[status].toLowerCase()} ${value((overview) => overview.ridesToday[status])}`)
            .join(' · '),
        })}
      </p>
    </div>
  );
}

function zoneText(zone: string): string {
  const name = zoneName(zone);
  return 'near' in name ? t('ops.zone.near', { place: name.near }) : name.centre;
}

/** The heat map's numbers: zones with riders waiting or drivers free, by demand. */
function ZonesTable({ zones }: { zones: ZonesResponse | null }) {
  if (!zones) return null;
  return (
    <div class="card stack">
      <h3 class="flush">{t('ops.zones.title')}</h3>
      {zones.zones.length === 0 ? (
        <p class="flush">{t('ops.zones.none')}</p>
      ) : (
        <table>
          <caption class="visually-hidden">{t('ops.zones.caption')}</caption>
          <thead>
            <tr>
              <th scope="col">{t('ops.zones.zone')}</th>
              <th scope="col">{t('ops.zones.waiting')}</th>
              <th scope="col">{t('ops.zones.free')}</th>
              <th scope="col">{t('ops.zones.surge')}</th>
            </tr>
          </thead>
          <tbody>
            {zones.zones.map((zone) => (
              <tr key={zone.zone}>
                <td>
                  {zoneText(zone.zone)}
                  <br />
                  <small class="muted">
                    <code>{zone.zone}</code>
                  </small>
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
