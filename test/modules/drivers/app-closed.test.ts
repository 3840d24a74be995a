import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { call, createTestApp, type TestApp } from '../../helpers/app.ts';
import { signUp, type TestUser } from '../../helpers/factories.ts';
import { eventually, near, offersOf, PICKUP } from '../../helpers/dispatch.ts';
import { assertOk, bookRide } from '../../helpers/rides.ts';
import { realtimeUrl, TestSocket } from '../../realtime/socket-client.ts';

// A driver's app that closes must not keep the driver "available": the app says so as it closes
// (DELETE /drivers/me/location, sent with fetch keepalive on pagehide), and a realtime connection
// the client lost takes the driver offline unless they report again within the reconnect grace.

const GRACE_MS = 300;

describe('a driver whose app closes goes offline', () => {
  let t: TestApp;
  let url: string;
  before(async () => {
    t = await createTestApp({ dispatch: { mode: 'batched', batchMs: 50, offerTtlMs: 15_000, maxMs: 120_000 } }, { driverReconnectGraceMs: GRACE_MS });
    url = await realtimeUrl(t.app);
  });
  after(() => t.close());

  let area = 0;
  const place = () => near(PICKUP, 50 * ++area);

  async function onlineDriver(at: { lat: number; lon: number }): Promise<{ driver: TestUser; socket: TestSocket }> {
    const driver = await signUp(t, { role: 'DRIVER' });
    assertOk(await call(t.app, 'PUT', '/drivers/me/profile', { token: driver.token, body: { vehicleType: 'mini', vehicleNumber: `KA01AB${String(driver.id).padStart(4, '0')}` } }));
    const { socket } = await TestSocket.connect(url, driver.token);
    socket.send({ type: 'position', ...at });
    await eventually(async () => ((await call(t.app, 'GET', '/drivers/me/location', { token: driver.token })).status === 200 ? true : undefined), 'the position');
    return { driver, socket };
  }

  const isOnline = async (driver: TestUser) => (await call(t.app, 'GET', '/drivers/me/location', { token: driver.token })).status === 200;

  test('the report the app sends as its page closes: a booking a second later is offered to nobody', async () => {
    const pickup = place();
    const { driver, socket } = await onlineDriver(near(pickup, 0.5));
    // What the driver app sends on pagehide (fetch with keepalive and its bearer token).
    // The socket is still open here: the report alone must take the driver out of dispatch.
    assertOk(await call(t.app, 'DELETE', '/drivers/me/location', { token: driver.token }));
    const rider = await signUp(t);
    await bookRide(t, rider, { pickupLat: pickup.lat, pickupLon: pickup.lon, dropLat: pickup.lat + 0.05, dropLon: pickup.lon });
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    assert.deepEqual(await offersOf(t, driver), [], 'no offer to a closed app');
    socket.ws.close();
  });

  test('a lost connection takes the driver offline after the grace, and bookings then go to nobody', async () => {
    const pickup = place();
    const { driver, socket } = await onlineDriver(near(pickup, 0.5));
    socket.ws.terminate();
    await eventually(async () => ((await isOnline(driver)) ? undefined : true), 'the driver offline', 5_000);
    const rider = await signUp(t);
    await bookRide(t, rider, { pickupLat: pickup.lat, pickupLon: pickup.lon, dropLat: pickup.lat + 0.05, dropLon: pickup.lon });
    await new Promise((resolve) => setTimeout(resolve, 500));
    assert.deepEqual(await offersOf(t, driver), []);
  });

  test('an app that reconnects and reports within the grace stays online', async () => {
    const { driver, socket } = await onlineDriver(place());
    socket.ws.close();
    const again = await TestSocket.connect(url, driver.token);
    again.socket.send({ type: 'position', ...place() });
    await new Promise((resolve) => setTimeout(resolve, GRACE_MS * 3));
    assert.equal(await isOnline(driver), true);
    again.socket.ws.close();
  });
});
