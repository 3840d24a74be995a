import { cellToBoundary } from 'h3-js';
import L from 'leaflet';
import { useEffect, useRef } from 'preact/hooks';
import type { LiveDriver, LiveDriverState, PublicRide, ZoneView } from '../api/types.ts';
import { t } from '../i18n/i18n.ts';
import { baseMap, textContent } from '../map/map-view.tsx';
import { useSettings } from '../ui/app-context.tsx';
import { go } from '../ui/router.ts';
import { keysOf } from '../ui/labels.ts';
import { INTENSITY_LABELS, LIVE_STATE_LABELS } from './ops-labels.ts';

/** The circle a map view covers, as GET /admin/drivers/live asks for it. */
export interface View {
  lat: number;
  lon: number;
  radiusKm: number;
}

/** The API's largest radius (LIVE_RADIUS_MAX_KM): a view zoomed out further asks for the middle of it. */
const MAX_RADIUS_KM = 50;

interface Props {
  drivers: readonly LiveDriver[];
  requests: readonly PublicRide[];
  zones: readonly ZoneView[];
  /** At start and after every move or zoom. */
  onView: (view: View) => void;
}

// Colour and shape both tell the states apart (a filled dot, a ringed dot, a hollow one).
const DRIVER_STYLE: Record<LiveDriverState, L.CircleMarkerOptions> = {
  available: { radius: 7, color: '#ffffff', weight: 2, fillColor: '#0b6e4f', fillOpacity: 1 },
  busy: { radius: 7, color: '#111827', weight: 3, fillColor: '#1d4ed8', fillOpacity: 1 },
  not_cleared: { radius: 6, color: '#4b5563', weight: 2, fillColor: '#ffffff', fillOpacity: 1 },
};

const ZONE_COLOURS: Record<ZoneView['intensity'], string> = { NORMAL: '#facc15', MODERATE: '#f59e0b', HIGH: '#ea580c', SEVERE: '#b91c1c' };

interface Layers {
  map: L.Map;
  drivers: Map<number, L.CircleMarker>;
  requests: L.LayerGroup;
  zones: L.LayerGroup;
}

/**
 * The operators' map: zones as H3 hexagons coloured by surge (boundaries from h3-js, the library
 * the service draws its zones with), open requests as squares that open the ride, drivers as dots
 * by state. Drawn on a canvas: a city's drivers are hundreds of markers.
 */
export function LiveMap({ drivers, requests, zones, onView }: Props) {
  const settings = useSettings();
  const element = useRef<HTMLDivElement>(null);
  const layers = useRef<Layers | null>(null);
  const viewed = useRef(onView);
  viewed.current = onView;

  useEffect(() => {
    const { map, dispose } = baseMap(element.current!, settings, { preferCanvas: true });
    map.setZoom(12, { animate: false });
    layers.current = { map, drivers: new Map(), zones: L.layerGroup().addTo(map), requests: L.layerGroup().addTo(map) };
    const report = () => viewed.current(viewOf(map));
    map.on('moveend', report);
    report();
    return () => {
      dispose();
      layers.current = null;
    };
  }, [settings]);

  useEffect(() => {
    const current = layers.current;
    if (!current) return;
    current.zones.clearLayers();
    for (const zone of zones) {
      L.polygon(cellToBoundary(zone.zone), { color: ZONE_COLOURS[zone.intensity], weight: 1, fillColor: ZONE_COLOURS[zone.intensity], fillOpacity: 0.35 })
        .bindTooltip(textContent(t('ops.map.zone', { zone: zone.zone, demand: zone.demand, supply: zone.supply, multiplier: zone.multiplier, intensity: INTENSITY_LABELS[zone.intensity] })))
        .addTo(current.zones);
    }
  }, [zones]);

  useEffect(() => {
    const current = layers.current;
    if (!current) return;
    current.requests.clearLayers();
    for (const ride of requests) {
      if (ride.pickupLat === null || ride.pickupLon === null) continue;
      const label = t('ops.map.request', { id: ride.id, place: ride.pickupLocation ?? t('ops.map.pinnedPickup') });
      L.marker([ride.pickupLat, ride.pickupLon], {
        icon: L.divIcon({ className: 'pin pin-request', html: '<span aria-hidden="true">R</span>', iconSize: [24, 24], iconAnchor: [12, 12] }),
        title: label,
        alt: label,
        keyboard: true,
      })
        .on('click', () => go(`/rides/${ride.id}`))
        .addTo(current.requests);
    }
  }, [requests]);

  useEffect(() => {
    const current = layers.current;
    if (!current) return;
    const seen = new Set<number>();
    for (const driver of drivers) {
      seen.add(driver.driverId);
      // The name is what the driver typed: a text node, never HTML.
      const text = textContent(t('ops.map.driver', { name: driver.name ?? t('ops.aDriver'), id: driver.driverId, state: LIVE_STATE_LABELS[driver.state].toLowerCase() }));
      const shown = current.drivers.get(driver.driverId);
      if (shown) {
        shown.setLatLng([driver.lat, driver.lon]).setStyle(DRIVER_STYLE[driver.state]).setTooltipContent(text);
        continue;
      }
      current.drivers.set(driver.driverId, L.circleMarker([driver.lat, driver.lon], DRIVER_STYLE[driver.state]).bindTooltip(text).addTo(current.map));
    }
    for (const [id, marker] of current.drivers) {
      if (seen.has(id)) continue;
      marker.remove();
      current.drivers.delete(id);
    }
  }, [drivers]);

  return <div ref={element} class="map tall" role="region" aria-label={t('ops.map.label')} />;
}

/** What the map's marks mean, drawn from the same styles as the map. */
export function LiveMapLegend() {
  return (
    <ul class="legend" aria-label={t('ops.map.legend')}>
      {keysOf(LIVE_STATE_LABELS).map((state) => {
        const { fillColor, color, weight } = DRIVER_STYLE[state];
        return (
          <li key={state}>
            <span class="swatch" style={{ background: fillColor, border: `${weight}px solid ${color}` }} aria-hidden="true" /> {LIVE_STATE_LABELS[state]}
          </li>
        );
      })}
      <li>
        <span class="swatch pin-request" aria-hidden="true" /> {t('ops.map.legendRequest')}
      </li>
      <li>
        <span class="swatch zone" style={{ background: `linear-gradient(90deg, ${ZONE_COLOURS.NORMAL}, ${ZONE_COLOURS.SEVERE})` }} aria-hidden="true" /> {t('ops.map.legendZone')}
      </li>
    </ul>
  );
}

function viewOf(map: L.Map): View {
  const centre = map.getCenter();
  const radiusKm = Math.min(MAX_RADIUS_KM, Math.max(0.1, map.distance(centre, map.getBounds().getNorthEast()) / 1000));
  return { lat: round(centre.lat, 5), lon: round(L.Util.wrapNum(centre.lng, [-180, 180], true), 5), radiusKm: round(radiusKm, 2) };
}

const round = (value: number, digits: number) => Math.round(value * 10 ** digits) / 10 ** digits;
