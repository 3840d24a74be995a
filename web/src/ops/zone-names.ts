import { haversineKm } from '../../../src/contract/rules.ts';
import { zoneCentre } from '../../../src/contract/zones.ts';
import { KNOWN_PLACES } from '../map/places.ts';

/** A zone within this distance of a known place is named after it. */
const NEAR_KM = 2;

/**
 * A zone as an operator reads it: the closest known place it is near, else where its centre is (the
 * screen puts either in words). The H3 cell id (what the API and the logs say) is shown beside it,
 * not instead of it.
 */
export function zoneName(zone: string): { near: string } | { centre: string } {
  const centre = zoneCentre(zone);
  let nearest: { name: string; km: number } | undefined;
  for (const place of KNOWN_PLACES) {
    const km = haversineKm(centre, place);
    if (!nearest || km < nearest.km) nearest = { name: place.name, km };
  }
  if (nearest && nearest.km <= NEAR_KM) return { near: nearest.name };
  return { centre: `${Math.abs(centre.lat).toFixed(3)}° ${centre.lat < 0 ? 'S' : 'N'}, ${Math.abs(centre.lon).toFixed(3)}° ${centre.lon < 0 ? 'W' : 'E'}` };
}
