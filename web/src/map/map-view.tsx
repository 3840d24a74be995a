import L from 'leaflet';
import 'leaflet/dist/leaflet.css';
import { useEffect, useRef } from 'preact/hooks';
import type { Point } from '../../../src/contract/types.ts';
import type { WebAppSettings } from '../config.ts';
import { useSettings } from '../ui/app-context.tsx';
import { CITY_CENTRE } from './places.ts';
import './map.css';
import { t } from '../i18n/i18n.ts';

export type MarkerKind = 'pickup' | 'drop' | 'driver' | 'me';

export interface MapMarker extends Point {
  id: string;
  kind: MarkerKind;
  /** Read by assistive technology and shown as the marker's tooltip. */
  label: string;
  draggable?: boolean;
}

interface Props {
  /** Names the map region for assistive technology. */
  label: string;
  markers: MapMarker[];
  /** A line to draw (the way to the pickup or the drop). */
  line?: Point[];
  onPick?: (point: Point) => void;
  onDrag?: (id: string, point: Point) => void;
}

const GLYPH: Record<MarkerKind, string> = { pickup: 'A', drop: 'B', driver: '▲', me: '●' };

interface MapState {
  map: L.Map;
  markers: Map<string, L.Marker>;
  line: L.Polyline;
  /** The marker ids the view was last fitted to. */
  fitted: string;
}

/**
 * A Leaflet map with tiles from MAP_TILE_URL and markers drawn as shapes, not images: when tiles
 * cannot load (offline, blocked) the map turns to a plain background and every marker still shows.
 */
export function MapView({ label, markers, line, onPick, onDrag }: Props) {
  const settings = useSettings();
  const element = useRef<HTMLDivElement>(null);
  const state = useRef<MapState | null>(null);
  // Leaflet keeps the listeners it was given; they read the latest props through this.
  const handlers = useRef({ onPick, onDrag });
  handlers.current = { onPick, onDrag };

  useEffect(() => {
    const { map, dispose } = baseMap(element.current!, settings);
    map.on('click', (event: L.LeafletMouseEvent) => handlers.current.onPick?.({ lat: event.latlng.lat, lon: event.latlng.lng }));
    state.current = { map, markers: new Map(), line: L.polyline([], { className: 'map-line', interactive: false }).addTo(map), fitted: '' };
    return () => {
      dispose();
      state.current = null;
    };
  }, [settings]);

  useEffect(() => {
    const current = state.current;
    if (!current) return;
    const seen = new Set<string>();
    for (const marker of markers) {
      seen.add(marker.id);
      const existing = current.markers.get(marker.id);
      if (existing) {
        existing.setLatLng([marker.lat, marker.lon]);
        continue;
      }
      const created = L.marker([marker.lat, marker.lon], {
        icon: L.divIcon({ className: `pin pin-${marker.kind}`, html: `<span aria-hidden="true">${GLYPH[marker.kind]}</span>`, iconSize: [30, 30], iconAnchor: [15, 15] }),
        title: marker.label,
        alt: marker.label,
        draggable: marker.draggable === true,
        keyboard: marker.draggable === true,
        interactive: marker.draggable === true,
        // Moving markers stay on top of the fixed ones they approach.
        zIndexOffset: marker.kind === 'driver' || marker.kind === 'me' ? 1000 : 0,
      }).addTo(current.map);
      if (marker.draggable) {
        created.on('dragend', () => {
          const { lat, lng } = created.getLatLng();
          handlers.current.onDrag?.(marker.id, { lat, lon: lng });
        });
      }
      current.markers.set(marker.id, created);
    }
    for (const [id, marker] of current.markers) {
      if (seen.has(id)) continue;
      marker.remove();
      current.markers.delete(id);
    }
    current.line.setLatLngs((line ?? []).map((point) => [point.lat, point.lon]));
    keepInView(current, markers);
  }, [markers, line]);

  return <div ref={element} class="map" role="region" aria-label={label} />;
}

/**
 * Content for a Leaflet tooltip or popup: Leaflet inserts a string as HTML, so anything built from
 * what people typed (names, places) goes in as an element holding a text node.
 */
export function textContent(text: string): HTMLElement {
  const element = document.createElement('span');
  element.textContent = text;
  return element;
}

/**
 * A Leaflet map in the container, opening on the city, with tiles from MAP_TILE_URL; when they
 * cannot load the container turns to a plain grid (map.css) and says so.
 */
export function baseMap(container: HTMLElement, settings: WebAppSettings, options: L.MapOptions = {}): { map: L.Map; dispose: () => void } {
  const { zoomControl = true, ...rest } = options;
  const map = L.map(container, { ...rest, zoomControl: false }).setView([CITY_CENTRE.lat, CITY_CENTRE.lon], 13);
  // Leaflet's own words, in the app's language: the zoom buttons' names, and no English title on its credit.
  if (zoomControl) L.control.zoom({ zoomInTitle: t('map.zoomIn'), zoomOutTitle: t('map.zoomOut') }).addTo(map);
  map.attributionControl?.setPrefix('<a href="https://leafletjs.com">Leaflet</a>');
  container.dataset.offlineText = t('map.offline');
  const offline = (yes: boolean) => container.classList.toggle('map-offline', yes);
  if (settings.mapTileUrl) {
    const tiles = L.tileLayer(settings.mapTileUrl, { maxZoom: 19, attribution: settings.mapAttribution });
    tiles.on('tileerror', () => offline(true));
    tiles.on('tileload', () => offline(false));
    tiles.addTo(map);
  } else {
    offline(true);
  }
  // The container changes size with the layout (a rotated phone, content above it), not only with the window.
  const resized = new ResizeObserver(() => map.invalidateSize());
  resized.observe(container);
  return {
    map,
    dispose: () => {
      resized.disconnect();
      map.remove();
    },
  };
}

// Fit the view when markers come or go; afterwards move it only when a marker leaves it, so a
// driver moving every second does not make the map jump.
function keepInView(current: MapState, markers: MapMarker[]): void {
  if (markers.length === 0) return;
  const ids = markers.map((marker) => marker.id).sort().join(',');
  const points = markers.map((marker) => L.latLng(marker.lat, marker.lon));
  const bounds = L.latLngBounds(points);
  if (ids === current.fitted && current.map.getBounds().contains(bounds)) return;
  current.fitted = ids;
  // Not animated: an animation still running when the screen changes and the map is removed
  // would touch the removed map (Leaflet's "_leaflet_pos" error).
  if (points.length === 1) current.map.setView(points[0], Math.max(current.map.getZoom(), 14), { animate: false });
  else current.map.fitBounds(bounds, { padding: [40, 40], maxZoom: 16, animate: false });
}
