import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { call, createTestApp, type TestApp } from '../../helpers/app.ts';
import { signUp } from '../../helpers/factories.ts';
import { driverAt, near, offerOf, offersOf, PICKUP } from '../../helpers/dispatch.ts';
import { manhattanMetres, OsrmStandIn, STAND_IN_SPEED_MPS } from '../../helpers/osrm-stand-in.ts';
import { assertOk, bookRide } from '../../helpers/rides.ts';

// Dispatch asks the router ROUTING chose, not the straight line: a batched round weighs each
// driver's time to the pickup by road, the offer shows that way, and an estimate's pickup wait is it.
// The OSRM stand-in's roads run only north-south and east-west, so a driver diagonally away is
// nearer as the crow flies and farther by road than one due north.

type Point = { lat: number; lon: number };
const KM_PER_DEGREE = 111.2;
/** `km` kilometres to the north-east of `origin`, as the crow flies. */
const diagonal = (origin: Point, km: number) => ({
  lat: origin.lat + km / Math.SQRT2 / KM_PER_DEGREE,
  lon: origin.lon + km / Math.SQRT2 / (KM_PER_DEGREE * Math.cos((origin.lat * Math.PI) / 180)),
});
/** The stand-in's way from `from` to `to`: kilometres to 10 m and whole minutes. */
function standInWay(from: Point, to: Point): { km: number; minutes: number } {
  const metres = manhattanMetres([from.lon, from.lat], [to.lon, to.lat]);
  return { km: Math.round(metres / 10) / 100, minutes: Math.max(1, Math.ceil(metres / STAND_IN_SPEED_MPS / 60)) };
}

describe('ROUTING=osrm: the ways to the pickup that dispatch weighs and shows are the router\'s', () => {
  let osrm: OsrmStandIn;
  let t: TestApp;
  before(async () => {
    osrm = await new OsrmStandIn().start();
    t = await createTestApp({ routing: { provider: 'osrm', url: osrm.url }, dispatch: { mode: 'batched', batchMs: 60, offerTtlMs: 15_000, maxMs: 120_000 } });
  });
  after(async () => {
    await t.close();
    await osrm.stop();
  });

  test('a batched round offers the ride to the driver nearer by road, not the one nearer as the crow flies, with the way by road', async () => {
    const pickup = near(PICKUP, 40);
    const crow = await driverAt(t, diagonal(pickup, 1), 'mini'); // 1 km away, 1.41 km by road
    const road = await driverAt(t, near(pickup, 1.3), 'mini'); // 1.3 km away, 1.3 km by road
    const ride = await bookRide(t, await signUp(t), { pickupLat: pickup.lat, pickupLon: pickup.lon, dropLat: pickup.lat - 0.05, dropLon: pickup.lon, rideType: 'mini' });
    const offer = await offerOf(t, road, ride.id);
    assert.deepEqual({ km: offer.pickupDistanceKm, minutes: offer.pickupEtaMinutes }, standInWay(near(pickup, 1.3), pickup));
    assert.deepEqual(await offersOf(t, crow), [], 'the driver nearer as the crow flies got no offer');
    assert.ok(osrm.requests.some((path) => path.startsWith('/table/v1/driving/')), 'the round asked the table service');
  });

  test("an estimate's pickup wait is the nearest driver's way by road", async () => {
    const pickup = near(PICKUP, 80);
    const at = diagonal(pickup, 3);
    await driverAt(t, at, 'auto');
    const reply = await call(t.app, 'GET', `/rides/estimate?rideType=auto&pickupLat=${pickup.lat}&pickupLon=${pickup.lon}&dropLat=${pickup.lat - 0.05}&dropLon=${pickup.lon}`);
    assertOk(reply);
    const { minutes } = standInWay(at, pickup);
    assert.equal(reply.body.driverNearby, true);
    assert.deepEqual([reply.body.etaMinMinutes, reply.body.etaMaxMinutes], [Math.max(1, minutes - 2), minutes + 3], `a ${minutes}-minute way by road`);
  });
});
