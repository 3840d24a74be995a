import { useEffect, useState } from 'preact/hooks';
import type { Api } from '../api/endpoints.ts';
import type { ZonesResponse } from '../api/types.ts';
import { ErrorNotice } from '../ui/components.tsx';
import { timeOf } from '../ui/format.ts';
import { useAction } from '../ui/use-action.ts';

/** Zones with riders waiting or drivers free: demand, supply and the surge they make. */
export function ZonesScreen({ api }: { api: Api }) {
  const [zones, setZones] = useState<ZonesResponse | null>(null);
  const load = useAction(async () => setZones(await api.admin.zones()));
  useEffect(() => void load.run(), [api]);
  return (
    <section class="stack" aria-labelledby="zones-title">
      <div class="row spread">
        <h2 id="zones-title">Zones and surge</h2>
        <button type="button" class="secondary" disabled={load.busy} onClick={() => void load.run()}>
          Refresh
        </button>
      </div>
      <ErrorNotice message={load.error} />
      {zones && (
        <div class="card stack">
          {zones.generatedAt && <p class="muted flush">As of {timeOf(zones.generatedAt)}</p>}
          {zones.zones.length === 0 && <p class="flush">No zone has riders waiting or drivers free right now.</p>}
          <table hidden={zones.zones.length === 0}>
            <caption class="visually-hidden">Zones by demand</caption>
            <thead>
              <tr>
                <th scope="col">Zone</th>
                <th scope="col">Waiting</th>
                <th scope="col">Free drivers</th>
                <th scope="col">Surge</th>
              </tr>
            </thead>
            <tbody>
              {zones.zones.map((zone) => (
                <tr key={zone.zone}>
                  <td>{zone.zone}</td>
                  <td>{zone.demand}</td>
                  <td>{zone.supply}</td>
                  <td>
                    × {zone.multiplier} <span class="muted">{zone.intensity.toLowerCase()}</span>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
