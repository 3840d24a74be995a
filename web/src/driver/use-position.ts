import { useEffect, useState } from 'preact/hooks';
import type { Point } from '../../../src/contract/types.ts';
import { CITY_CENTRE } from '../map/places.ts';

/** Where the position comes from: the device, or a marker the driver drags when the device has none. */
export type PositionSource = 'waiting' | 'device' | 'marker';

export interface DriverPosition {
  position: Point | null;
  source: PositionSource;
  /** The driver dragged their marker (only when the device gives no position). */
  place: (point: Point) => void;
}

/** While online: the browser's geolocation, or a draggable marker when it is missing or refused. */
export function usePosition(online: boolean): DriverPosition {
  const [position, setPosition] = useState<Point | null>(null);
  const [source, setSource] = useState<PositionSource>('waiting');
  useEffect(() => {
    if (!online) return;
    const useMarker = () => {
      setSource('marker');
      setPosition((known) => known ?? CITY_CENTRE);
    };
    if (!('geolocation' in navigator)) return useMarker();
    setSource('waiting');
    const watch = navigator.geolocation.watchPosition(
      (fix) => {
        setSource('device');
        setPosition({ lat: fix.coords.latitude, lon: fix.coords.longitude });
      },
      useMarker,
      { enableHighAccuracy: true, maximumAge: 5_000, timeout: 15_000 },
    );
    return () => navigator.geolocation.clearWatch(watch);
  }, [online]);
  return { position, source, place: setPosition };
}
