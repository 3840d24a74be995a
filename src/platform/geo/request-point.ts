import { badRequest } from '../errors.ts';
import type { Point } from './geo.ts';

// Apart from geo.ts, which the web apps bundle: this one answers HTTP errors, a server's business.

/** A point from a request's optional `<name>Lat` and `<name>Lon`: both halves, or neither (a 400 otherwise). */
export function point(lat: number | null | undefined, lon: number | null | undefined, name: string): Point | undefined {
  if (lat == null && lon == null) return undefined;
  if (lat == null || lon == null) throw badRequest(`${name}Lat and ${name}Lon go together`);
  return { lat, lon };
}
