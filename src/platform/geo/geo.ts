
export interface Point {
  lat: number;
  lon: number;
}

export const EARTH_RADIUS_KM = 6371.0088;
const toRadians = (degrees: number) => (degrees * Math.PI) / 180;

/** Great-circle distance in kilometres. */
export const haversineKm = (a: Point, b: Point): number => distanceKm(a.lat, a.lon, b.lat, b.lon);

/** The same, on plain numbers (no objects on hot loops). */
export function distanceKm(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const dLat = toRadians(lat2 - lat1);
  const dLon = toRadians(lon2 - lon1);
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(toRadians(lat1)) * Math.cos(toRadians(lat2)) * Math.sin(dLon / 2) ** 2;
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(h)));
}

const PLUS_CODE_ALPHABET = '23456789CFGHJMPQRVWX';
const PLUS_CODE_PRECISION = 8000; // 1/8000 degree: the 10th digit of a plus code (about 14 m)

/** Open Location Code ("plus code") of a point, 10 digits, e.g. 8FVC9G8F+6X. */
export function plusCode({ lat, lon }: Point): string {
  const clippedLat = Math.min(Math.max(lat, -90), 90);
  const normalizedLon = ((((lon + 180) % 360) + 360) % 360) - 180;
  // Rounding first keeps values like 47.365590 * 8000 from landing a hair below the integer.
  let latValue = Math.floor(Math.round((clippedLat + 90) * PLUS_CODE_PRECISION * 1e6) / 1e6);
  let lonValue = Math.floor(Math.round((normalizedLon + 180) * PLUS_CODE_PRECISION * 1e6) / 1e6);
  latValue = Math.min(latValue, 180 * PLUS_CODE_PRECISION - 1);
  const digits: string[] = [];
  for (let i = 0; i < 5; i++) {
    digits.unshift(PLUS_CODE_ALPHABET[latValue % 20] + PLUS_CODE_ALPHABET[lonValue % 20]);
    latValue = Math.floor(latValue / 20);
    lonValue = Math.floor(lonValue / 20);
  }
  const code = digits.join('');
  return `${code.slice(0, 8)}+${code.slice(8)}`;
}
