import type { Point } from '../../../src/contract/types.ts';

export interface Place extends Point {
  name: string;
}

/** A point from a ride's nullable coordinates. */
export const pointOf = (lat: number | null, lon: number | null): Point | null => (lat === null || lon === null ? null : { lat, lon });

/** Where the maps open: central Bengaluru. */
export const CITY_CENTRE: Point = { lat: 12.9716, lon: 77.5946 };

/** Well-known places of the first city, for the rider's search (a geocoder can replace this list). */
export const KNOWN_PLACES: readonly Place[] = [
  { name: 'MG Road Metro', lat: 12.9756, lon: 77.6066 },
  { name: 'Cubbon Park', lat: 12.9763, lon: 77.5929 },
  { name: 'Majestic (Kempegowda Bus Station)', lat: 12.9767, lon: 77.5713 },
  { name: 'Bengaluru City Railway Station', lat: 12.9781, lon: 77.5695 },
  { name: 'Indiranagar 100 Feet Road', lat: 12.9719, lon: 77.6412 },
  { name: 'Koramangala Forum Mall', lat: 12.9346, lon: 77.6113 },
  { name: 'HSR Layout', lat: 12.9116, lon: 77.6474 },
  { name: 'Jayanagar 4th Block', lat: 12.925, lon: 77.5838 },
  { name: 'Lalbagh Botanical Garden', lat: 12.9507, lon: 77.5848 },
  { name: 'Malleshwaram', lat: 13.0035, lon: 77.5647 },
  { name: 'Hebbal', lat: 13.0358, lon: 77.597 },
  { name: 'Whitefield ITPL', lat: 12.9855, lon: 77.7364 },
  { name: 'Marathahalli', lat: 12.9569, lon: 77.7011 },
  { name: 'Electronic City', lat: 12.8452, lon: 77.6602 },
  { name: 'Kempegowda International Airport', lat: 13.1986, lon: 77.7066 },
  { name: 'Yeshwanthpur', lat: 13.0285, lon: 77.5401 },
];

/** Places whose name contains every word typed, best (starts with the text) first. */
export function searchPlaces(text: string, limit = 6): Place[] {
  const words = text.toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return [];
  return KNOWN_PLACES.filter((place) => words.every((word) => place.name.toLowerCase().includes(word)))
    .sort((a, b) => Number(b.name.toLowerCase().startsWith(words[0])) - Number(a.name.toLowerCase().startsWith(words[0])))
    .slice(0, limit);
}
