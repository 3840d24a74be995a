// Which OpenStreetMap ways a car may drive, in which directions, and how fast: the rules the import
// applies to each way's tags. Speeds are typical city travel speeds per road class (what a car
// averages with junctions and traffic), not limits; a lower `maxspeed` on a way wins.

/** km/h by `highway` value; a way whose class is not listed (footway, cycleway, construction…) is not driven. */
export const HIGHWAY_SPEEDS_KMH: Readonly<Record<string, number>> = {
  motorway: 80,
  motorway_link: 45,
  trunk: 60,
  trunk_link: 40,
  primary: 45,
  primary_link: 35,
  secondary: 35,
  secondary_link: 30,
  tertiary: 30,
  tertiary_link: 25,
  unclassified: 25,
  residential: 20,
  living_street: 10,
  service: 15,
  road: 20,
};

// Classes that are one way unless tagged otherwise.
const ONE_WAY_CLASSES = new Set(['motorway', 'motorway_link']);
// Values that keep cars out; the most specific of these tags that a way carries decides.
const ACCESS_TAGS = ['motorcar', 'motor_vehicle', 'vehicle', 'access'];
const NO_CARS = new Set(['no', 'private', 'agricultural', 'forestry', 'emergency', 'military', 'delivery']);

export interface Drivable {
  speedKmh: number;
  /** Along the way's node order. */
  forward: boolean;
  /** Against it. */
  backward: boolean;
}

/** How a car may use a way with these tags, or undefined when it may not. */
export function drivable(tags: Readonly<Record<string, string>>): Drivable | undefined {
  const classSpeed = HIGHWAY_SPEEDS_KMH[tags.highway ?? ''];
  if (classSpeed === undefined || tags.area === 'yes') return undefined;
  const access = ACCESS_TAGS.find((key) => tags[key] !== undefined);
  if (access && NO_CARS.has(tags[access])) return undefined;
  const direction = oneway(tags);
  if (!direction) return undefined;
  const limit = maxspeedKmh(tags.maxspeed);
  return { speedKmh: limit === undefined ? classSpeed : Math.min(classSpeed, limit), ...direction };
}

function oneway(tags: Readonly<Record<string, string>>): { forward: boolean; backward: boolean } | undefined {
  const value = tags.oneway;
  if (value === 'yes' || value === 'true' || value === '1') return { forward: true, backward: false };
  if (value === '-1' || value === 'reverse') return { forward: false, backward: true };
  if (value === 'no' || value === 'false' || value === '0') return { forward: true, backward: true };
  // Direction changes by time of day: a route cannot count on either.
  if (value === 'reversible' || value === 'alternating') return undefined;
  const implied = ONE_WAY_CLASSES.has(tags.highway ?? '') || tags.junction === 'roundabout' || tags.junction === 'circular';
  return { forward: true, backward: !implied };
}

/** `50`, `50 km/h`, `30 mph` → km/h; anything else (`IN:urban`, `signals`, `none`) → undefined. */
export function maxspeedKmh(value: string | undefined): number | undefined {
  const match = /^\s*(\d+(?:\.\d+)?)\s*(km\/h|kmh|kph|mph)?\s*$/i.exec(value ?? '');
  if (!match) return undefined;
  const speed = Number(match[1]) * (match[2]?.toLowerCase() === 'mph' ? 1.609344 : 1);
  return speed > 0 ? speed : undefined;
}
