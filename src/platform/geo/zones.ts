import { cellToLatLng, cellToParent, getHexagonEdgeLengthAvg, gridDisk, latLngToCell } from 'h3-js';
import type { Point } from './geo.ts';

/**
 * Demand and supply are counted per H3 hexagon of this resolution: about 0.74 km² (edges of
 * 0.53 km), the size ride-hailing systems price surge at, small enough for a busy neighbourhood
 * and an empty suburb next to it to differ.
 */
export const ZONE_RESOLUTION = 8;
export const ZONE_EDGE_KM = getHexagonEdgeLengthAvg(ZONE_RESOLUTION, 'km');

export const zoneOf = ({ lat, lon }: Point): string => latLngToCell(lat, lon, ZONE_RESOLUTION);

/** The coarser hexagon a zone lies in (resolution 6: about 36 km², a district of some 50 zones). */
export const districtOf = (zone: string): string => cellToParent(zone, 6);

/** The zones that touch this one (not the zone itself). */
export const neighboursOf = (zone: string): string[] => gridDisk(zone, 1).filter((cell) => cell !== zone);

export function zoneCentre(zone: string): Point {
  const [lat, lon] = cellToLatLng(zone);
  return { lat, lon };
}
