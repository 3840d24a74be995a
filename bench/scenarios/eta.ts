// Travel times that learn (issue 28, docs/routing.md "Learned travel times"): on simulated weeks of a
// city whose traffic varies by hour of week and by place (simulator/traffic.ts, the simulator's own),
// the mean absolute percentage error of trip durations predicted three ways: constant speed (the
// straight line at 24 km/h), the router alone (ROUTING's default, `straight`), and the router with the
// learned correction (insights' travel-times.model.ts, the service's arithmetic). The first weeks
// teach; the last week is measured, each trip predicted before it is learned from, as in the service.
// In-process and the same in both modes, so it runs with the embedded one only.
import { cellKeys, HOURS_PER_WEEK, TravelTimeCells, tripRatio } from '../../src/modules/insights/travel-times.model.ts';
import { haversineKm, type Point } from '../../src/platform/geo/geo.ts';
import { districtOf, zoneOf } from '../../src/platform/geo/zones.ts';
import { StraightRouter } from '../../src/platform/routing/straight-router.ts';
import { loadCity, type City } from '../../simulator/cities.ts';
import { trafficFactor } from '../../simulator/traffic.ts';
import { log, quick, type Scenario } from '../lib/context.ts';
import { random } from '../lib/drivers.ts';

const CITY = 'bengaluru';
/** Weeks that teach, then the week measured. */
const WEEKS = quick ? 3 : 5;
const TRIPS_PER_WEEK = quick ? 60_000 : 150_000;
/** Each trip's own luck (signals, a slow truck): a log-normal spread of durations around the traffic's. */
const LUCK_SIGMA = 0.15;
const CONSTANT_KMH = 24;
const TARGET_CUT = 1 / 3;

/** Trips per hour of a day: few at night, two peaks. */
const DAY_SHAPE = [0.2, 0.1, 0.08, 0.08, 0.1, 0.3, 0.6, 1.1, 1.6, 1.5, 1.1, 1, 1, 1, 0.95, 1, 1.2, 1.6, 1.7, 1.4, 1.1, 0.9, 0.6, 0.4];

interface Trip {
  pickup: Point;
  drop: Point;
  hourOfWeek: number;
  actualMinutes: number;
}

export interface EtaResult {
  trips: number;
  measured: number;
  cells: number;
  constantMape: number;
  routerMape: number;
  learnedMape: number;
}

/** Simulates the weeks and measures the last one. */
export function etaWeeks(city: City, weeks = WEEKS, tripsPerWeek = TRIPS_PER_WEEK, seed = 28): EtaResult {
  const next = random(seed);
  const gauss = () => Math.sqrt(-2 * Math.log(1 - next())) * Math.cos(2 * Math.PI * next());
  const weights = city.centres.map((centre) => centre.homes + centre.jobs);
  const total = weights.reduce((a, b) => a + b, 0);
  const place = (): Point => {
    let pick = next() * total;
    const centre = city.centres.find((_, i) => (pick -= weights[i]) < 0) ?? city.centres[0];
    const km = centre.spreadKm;
    return { lat: centre.lat + (gauss() * km) / 111.2, lon: centre.lon + (gauss() * km) / (111.2 * Math.cos((centre.lat * Math.PI) / 180)) };
  };
  const shapeTotal = DAY_SHAPE.reduce((a, b) => a + b, 0) * 7;
  const router = new StraightRouter();
  const cells = new TravelTimeCells();
  const errors = { constant: 0, router: 0, learned: 0 };
  let measured = 0;
  let trips = 0;
  for (let week = 0; week < weeks; week++) {
    for (let hour = 0; hour < HOURS_PER_WEEK; hour++) {
      const count = Math.round((tripsPerWeek * DAY_SHAPE[hour % 24]) / shapeTotal);
      for (let i = 0; i < count; i++) {
        const trip = simulatedTrip(city, place, gauss, hour);
        if (!trip) continue;
        trips++;
        const routerMinutes = router.routeNow(trip.pickup, trip.drop).durationMinutes;
        const keys = cellKeys(zoneOf(trip.pickup), zoneOf(trip.drop), trip.hourOfWeek, districtOf);
        if (week === weeks - 1) {
          measured++;
          const constantMinutes = (haversineKm(trip.pickup, trip.drop) / CONSTANT_KMH) * 60;
          errors.constant += Math.abs(constantMinutes - trip.actualMinutes) / trip.actualMinutes;
          errors.router += Math.abs(routerMinutes - trip.actualMinutes) / trip.actualMinutes;
          errors.learned += Math.abs(routerMinutes * cells.correction(keys) - trip.actualMinutes) / trip.actualMinutes;
        }
        const ratio = tripRatio(trip.actualMinutes, routerMinutes);
        if (ratio !== undefined) cells.observe(keys, ratio);
      }
    }
  }
  const mape = (sum: number) => Math.round((1000 * sum) / measured) / 10;
  return { trips, measured, cells: cells.size, constantMape: mape(errors.constant), routerMape: mape(errors.router), learnedMape: mape(errors.learned) };
}

/** One trip of the hour: between two of the city's places, driven at the traffic of its start. */
function simulatedTrip(city: City, place: () => Point, gauss: () => number, hourOfWeek: number): Trip | undefined {
  const pickup = place();
  const drop = place();
  const km = haversineKm(pickup, drop);
  if (km < 1) return undefined;
  const speed = city.speedKmh * trafficFactor(city, pickup, hourOfWeek);
  const actualMinutes = ((km * city.roadFactor) / speed) * 60 * Math.exp(LUCK_SIGMA * gauss());
  return { pickup, drop, hourOfWeek, actualMinutes };
}

export const etaScenario: Scenario = async (mode) => {
  if (mode.name !== 'embedded') return [];
  const city = loadCity(CITY);
  log(`eta: ${WEEKS} simulated weeks of ${TRIPS_PER_WEEK.toLocaleString('en')} trips in ${city.name}; the last one measured`);
  const result = etaWeeks(city);
  const cut = 1 - result.learnedMape / result.routerMape;
  return [
    {
      scenario:
        `eta: trip durations on a simulated week in ${city.name} (traffic by hour and place; ${result.measured.toLocaleString('en')} trips measured after ${WEEKS - 1} weeks learned, ` +
        `${result.cells.toLocaleString('en')} cells) — mean absolute % error: constant speed ${result.constantMape}, router ${result.routerMape}, router + learning ${result.learnedMape}`,
      mode: 'in-process',
      value: `MAPE ${result.constantMape} / ${result.routerMape} / ${result.learnedMape} %; learning cuts the router's error by ${Math.round(cut * 100)} %`,
      target: `learning cuts the router's error by at least a third`,
      met: cut >= TARGET_CUT,
    },
  ];
};
