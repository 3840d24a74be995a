import { readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Type, type Static } from 'typebox';
import Value from 'typebox/value';
import type { RideType } from './api-types.ts';

// Cities are data: simulator/cities/<name>.json, or any file of the same shape (--city path.json).

/** What riders book, and roughly what drivers drive, unless a city says otherwise. */
export const DEFAULT_RIDE_MIX: Readonly<Record<RideType, number>> = { bike: 0.2, auto: 0.25, mini: 0.33, sedan: 0.16, suv: 0.06 };

const Share = Type.Number({ minimum: 0 });

export const DemandCentre = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 60 }),
    lat: Type.Number({ minimum: -90, maximum: 90 }),
    lon: Type.Number({ minimum: -180, maximum: 180 }),
    homes: Type.Number({ minimum: 0, description: 'Weight as an origin in the morning and a destination in the evening' }),
    jobs: Type.Number({ minimum: 0, description: 'Weight as a destination in the morning and an origin in the evening' }),
    spreadKm: Type.Number({ exclusiveMinimum: 0, maximum: 20, description: 'How far around the centre its trips begin and end (one standard deviation)' }),
  },
  { additionalProperties: false },
);
export type DemandCentre = Static<typeof DemandCentre>;

export const CityFile = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 60 }),
    box: Type.Object(
      { south: Type.Number({ minimum: -90, maximum: 90 }), west: Type.Number({ minimum: -180, maximum: 180 }), north: Type.Number({ minimum: -90, maximum: 90 }), east: Type.Number({ minimum: -180, maximum: 180 }) },
      { additionalProperties: false, description: 'Where drivers go online and trips begin and end' },
    ),
    centres: Type.Array(DemandCentre, { minItems: 1 }),
    speedKmh: Type.Number({ minimum: 5, maximum: 120, description: 'Mean driving speed through traffic' }),
    roadFactor: Type.Number({ minimum: 1, maximum: 3, description: 'Road distance over straight-line distance, without a router' }),
    plate: Type.String({ pattern: '^[A-Z]{2}$', description: 'State code of the simulated vehicles' }),
    rideMix: Type.Optional(Type.Record(Type.Enum(Object.keys(DEFAULT_RIDE_MIX)), Share, { description: 'Share of each ride type' })),
  },
  { additionalProperties: false },
);

export type City = Omit<Static<typeof CityFile>, 'rideMix'> & { rideMix: Readonly<Record<RideType, number>> };

const FOLDER = fileURLToPath(new URL('cities/', import.meta.url));

/** The cities that ship with the simulator. */
export const cityNames = (): string[] =>
  readdirSync(FOLDER)
    .filter((file) => file.endsWith('.json'))
    .map((file) => basename(file, '.json'))
    .sort();

/** A shipped city by name (`bengaluru`), or a city file by path (`./my-city.json`). */
export function loadCity(nameOrPath: string): City {
  const shipped = cityNames().find((name) => name === nameOrPath.toLowerCase());
  const path = shipped ? join(FOLDER, `${shipped}.json`) : nameOrPath;
  if (!shipped && !nameOrPath.endsWith('.json')) throw new Error(`no city "${nameOrPath}": one of ${cityNames().join(', ')}, or a .json file`);
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new Error(`city file ${path}: ${(error as Error).message}`, { cause: error });
  }
  if (!Value.Check(CityFile, data)) {
    const problems = [...Value.Errors(CityFile, data)].slice(0, 5).map((e) => `${e.instancePath || '/'} ${e.message}`);
    throw new Error(`city file ${path}: ${problems.join('; ')}`);
  }
  const { box } = data;
  if (box.south >= box.north || box.west >= box.east) throw new Error(`city file ${path}: the box needs south < north and west < east`);
  // The schema's keys are DEFAULT_RIDE_MIX's, so a checked mix is a full mix of ride types.
  return { ...data, rideMix: (data.rideMix as Record<RideType, number> | undefined) ?? DEFAULT_RIDE_MIX };
}
