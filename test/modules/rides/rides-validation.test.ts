import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { call, createTestApp, type TestApp } from '../../helpers/app.ts';
import { signUp, type TestUser } from '../../helpers/factories.ts';
import { acceptedRide, assertError, assertOk, bookRide, completedRide, rideStatus, setStatus, TRIP } from '../../helpers/rides.ts';

const RATING_MESSAGE = 'Rating must be a number between 1 and 5.';

describe('ride input validation', () => {
  let t: TestApp;
  let rider: TestUser;
  before(async () => {
    t = await createTestApp();
    rider = await signUp(t);
  });
  after(() => t.close());

  const book = (body: unknown, token = rider.token) => call(t.app, 'POST', '/rides/book', { token, body });
  const historyCount = async () => (await call(t.app, 'GET', '/rides/history?limit=200', { token: rider.token })).body.length as number;

  test('coordinates out of range, of the wrong type or half a pair are refused and nothing is booked', async () => {
    const before = await historyCount();
    const bad: Array<[string, Record<string, unknown>]> = [
      ['pickupLat 91', { ...TRIP, pickupLat: 91 }],
      ['pickupLat -91', { ...TRIP, pickupLat: -91 }],
      ['dropLat 90.0001', { ...TRIP, dropLat: 90.0001 }],
      ['pickupLon -181', { ...TRIP, pickupLon: -181 }],
      ['dropLon 180.5', { ...TRIP, dropLon: 180.5 }],
      ['pickupLat as text', { ...TRIP, pickupLat: '12.97' }],
      ['dropLon as boolean', { ...TRIP, dropLon: true }],
      ['pickupLat as object', { ...TRIP, pickupLat: { value: 1 } }],
      ['only pickupLat', { pickupLat: 12.97 }],
      ['only pickupLon', { pickupLon: 77.59 }],
      ['pickup without lon', { pickupLat: 12.97, dropLat: 12.93, dropLon: 77.62 }],
      ['drop without lat', { pickupLat: 12.97, pickupLon: 77.59, dropLon: 77.62 }],
      ['pickupLon null beside a lat', { ...TRIP, pickupLon: null }],
    ];
    for (const [what, body] of bad) {
      const reply = await book(body);
      assert.equal(reply.status, 400, what);
      assertError(reply, 400, 'VALIDATION_FAILED');
    }
    assert.equal(await historyCount(), before, 'no ride was created');
    // The edges themselves are fine (each pair one point: a trip across the Earth is too long to book).
    assertOk(await book({ pickupLat: 90, pickupLon: 180, dropLat: 90, dropLon: -180 }), 'edge coordinates');
    assertOk(await book({ pickupLat: -90, pickupLon: -180, dropLat: -90, dropLon: 180 }), 'edge coordinates');
    assertOk(await book({ pickupLat: 12.97, pickupLon: 77.59 }), 'a pickup without a drop');
  });

  test('texts longer than their limits are refused; the limits themselves are fine', async () => {
    assertError(await book({ pickupLandmark: 'x'.repeat(601) }), 400, 'VALIDATION_FAILED');
    assertError(await book({ dropLandmark: 'x'.repeat(601) }), 400, 'VALIDATION_FAILED');
    assertError(await book({ pickupLocation: 'x'.repeat(201) }), 400, 'VALIDATION_FAILED');
    assertError(await book({ dropLocation: 'x'.repeat(201) }), 400, 'VALIDATION_FAILED');
    assertError(await book({ pickupLocation: 42 }), 400, 'VALIDATION_FAILED');
    const long = await book({ pickupLandmark: 'a'.repeat(600), dropLandmark: 'b'.repeat(600), pickupLocation: 'c'.repeat(200), dropLocation: 'd'.repeat(200) });
    assertOk(long, 'texts at their limits');
    assert.equal(long.body.pickupLandmark.length, 600);
    assert.equal(long.body.dropLocation.length, 200);
  });

  test('paymentMode must be a known mode; any case is accepted and stored upper-case', async () => {
    assertError(await book({ paymentMode: 'BITCOIN' }), 400, 'VALIDATION_FAILED');
    assertError(await book({ paymentMode: '  ' }), 400, 'VALIDATION_FAILED');
    assertError(await book({ paymentMode: 'upi-lite' }), 400, 'VALIDATION_FAILED');
    assertError(await book({ paymentMode: 5 }), 400, 'VALIDATION_FAILED');
    const cases: Array<[string, string]> = [['upi', 'UPI'], ['card', 'CARD'], ['Cash', 'CASH'], ['WALLET', 'WALLET'], ['UPI', 'UPI']];
    for (const [sent, stored] of cases) {
      const booked = await bookRide(t, rider, { paymentMode: sent });
      assert.equal(booked.paymentMode, stored, `${sent} is stored as ${stored}`);
      const history = await call(t.app, 'GET', '/rides/history', { token: rider.token });
      assert.equal(history.body.find((r: { id: number }) => r.id === booked.id).paymentMode, stored, 'stored as shown');
    }
  });

  test('rideType must be a known type', async () => {
    for (const rideType of ['rocket', 'limo', '', 7]) assertError(await book({ ...TRIP, rideType }), 400, 'VALIDATION_FAILED');
    assert.equal((await bookRide(t, rider, { rideType: 'Sedan' })).rideType, 'sedan');
  });

  test('malformed JSON is a 400', async () => {
    const reply = await call(t.app, 'POST', '/rides/book', { token: rider.token, body: '{"pickupLat": 12.9,', headers: { 'content-type': 'application/json' } });
    assertError(reply, 400);
  });

  test('status must be one of ACCEPTED, PICKED, COMPLETED, CANCELLED', async () => {
    const driver = await signUp(t, { role: 'DRIVER' });
    const booked = await bookRide(t, rider);
    for (const body of [{ status: 'REQUESTED' }, { status: 'FOO' }, { status: 'accepted', driverId: String(driver.id) }, {}, { driverId: String(driver.id) }, { status: null }]) {
      assertError(await setStatus(t, driver, booked.id, body), 400, 'VALIDATION_FAILED');
    }
    assertError(await call(t.app, 'POST', `/rides/status/${booked.id}`, { token: driver.token }), 400);
    assert.equal((await rideStatus(t, booked.id)).status, 'REQUESTED');
  });

  test('accepting needs a driverId that is a positive whole number', async () => {
    const driver = await signUp(t, { role: 'DRIVER' });
    const booked = await bookRide(t, rider);
    for (const driverId of [undefined, 'abc', '', '0', '-1', '1.5', ` ${driver.id}`, 0, -3, 2.5, null]) {
      assertError(await setStatus(t, driver, booked.id, { status: 'ACCEPTED', driverId }), 400, 'VALIDATION_FAILED');
    }
    const view = await rideStatus(t, booked.id);
    assert.equal(view.status, 'REQUESTED');
    assert.equal(view.driverId, null);
  });

  test('a non-numeric ride id is a 400 on every ride path', async () => {
    const driver = await signUp(t, { role: 'DRIVER' });
    assertError(await call(t.app, 'POST', '/rides/status/abc', { token: driver.token, body: { status: 'CANCELLED' } }), 400);
    assertError(await call(t.app, 'POST', '/rides/cancel/abc', { token: rider.token }), 400);
    assertError(await call(t.app, 'POST', '/rides/feedback/abc', { token: rider.token, body: { rating: 5 } }), 400);
    assertError(await call(t.app, 'POST', '/rides/location/abc', { token: driver.token, body: { lat: 1, lon: 1 } }), 400);
    assertError(await call(t.app, 'POST', '/rides/cancel/-4', { token: rider.token }), 400);
  });

  test('a bad rating answers exactly the documented message', async () => {
    const driver = await signUp(t, { role: 'DRIVER' });
    const { ride } = await completedRide(t, rider, driver);
    const url = `/rides/feedback/${ride.id}`;
    const bodies: unknown[] = [{}, { comment: 'no rating' }, { rating: '5' }, { rating: 4.5 }, { rating: 0 }, { rating: 6 }, { rating: -1 }, { rating: null }, { rating: true }, { rating: [5] }];
    for (const body of bodies) {
      const reply = await call(t.app, 'POST', url, { token: rider.token, body });
      assertError(reply, 400, 'VALIDATION_FAILED');
      assert.equal(reply.body.message, RATING_MESSAGE, `rating in ${JSON.stringify(body)}`);
    }
    for (const options of [{}, { headers: { 'content-type': 'application/json' }, body: '' }, { body: 'null', headers: { 'content-type': 'application/json' } }]) {
      const reply = await call(t.app, 'POST', url, { token: rider.token, ...options });
      assertError(reply, 400);
      assert.equal(reply.body.message, RATING_MESSAGE, `body ${JSON.stringify(options)}`);
    }
    const tooLong = await call(t.app, 'POST', url, { token: rider.token, body: { rating: 5, comment: 'x'.repeat(601) } });
    assertError(tooLong, 400, 'VALIDATION_FAILED');
    assertError(await call(t.app, 'POST', url, { token: rider.token, body: { rating: 5, comment: 12 } }), 400);
    const stored = (await call(t.app, 'GET', '/rides/history', { token: rider.token })).body.find((r: { id: number }) => r.id === ride.id);
    assert.equal(stored.riderRating, null, 'no refused feedback was stored');
    const atLimit = await call(t.app, 'POST', url, { token: rider.token, body: { rating: 1, comment: 'y'.repeat(600) } });
    assertOk(atLimit, 'a 600-character comment');
    assert.equal(atLimit.body.riderFeedback.length, 600);
  });

  test('a cancellation reason must be text of at most 600 characters', async () => {
    const booked = await bookRide(t, rider);
    assertError(await call(t.app, 'POST', `/rides/cancel/${booked.id}`, { token: rider.token, body: { reason: 'r'.repeat(601) } }), 400);
    assertError(await call(t.app, 'POST', `/rides/cancel/${booked.id}`, { token: rider.token, body: { reason: 12 } }), 400);
    assert.equal((await rideStatus(t, booked.id)).status, 'REQUESTED');
  });

  test('a location needs lat and lon in range', async () => {
    const driver = await signUp(t, { role: 'DRIVER' });
    const { booked } = await acceptedRide(t, rider, driver);
    const url = `/rides/location/${booked.id}`;
    for (const body of [{ lon: 77.59 }, { lat: 12.97 }, {}, { lat: 91, lon: 77 }, { lat: 12, lon: -181 }, { lat: '12.97', lon: 77.59 }, { lat: null, lon: 77.59 }]) {
      assertError(await call(t.app, 'POST', url, { token: driver.token, body }), 400, 'VALIDATION_FAILED');
    }
    assertError(await call(t.app, 'POST', url, { token: driver.token }), 400);
    assert.equal((await rideStatus(t, booked.id)).driverLat, null);
  });

  test('nearby search needs lat and lon and keeps radiusKm and limit in range', async () => {
    const bad = [
      '', 'lat=12.9', 'lon=77.6', 'lat=abc&lon=77.6', 'lat=91&lon=77.6', 'lat=12.9&lon=181',
      'lat=12.9&lon=77.6&radiusKm=0', 'lat=12.9&lon=77.6&radiusKm=51', 'lat=12.9&lon=77.6&radiusKm=-1', 'lat=12.9&lon=77.6&radiusKm=abc',
      'lat=12.9&lon=77.6&limit=0', 'lat=12.9&lon=77.6&limit=101', 'lat=12.9&lon=77.6&limit=2.5', 'lat=12.9&lon=77.6&limit=abc',
    ];
    for (const query of bad) assertError(await call(t.app, 'GET', `/rides/drivers/nearby?${query}`), 400, 'VALIDATION_FAILED');
    for (const query of ['lat=12.9&lon=77.6&radiusKm=50&limit=100', 'lat=12.9&lon=77.6&radiusKm=0.1&limit=1']) {
      const reply = await call(t.app, 'GET', `/rides/drivers/nearby?${query}`);
      assertOk(reply, query);
      assert.ok(Array.isArray(reply.body));
    }
  });

  test('an estimate needs a positive distance or all four coordinates', async () => {
    const bad = [
      '', 'rideType=mini', 'distanceKm=0', 'distanceKm=-3', 'distanceKm=abc', 'distanceKm=5&rideType=rocket',
      'pickupLat=12.97&pickupLon=77.59', 'pickupLat=12.97&pickupLon=77.59&dropLat=12.93',
      'distanceKm=5&pickupLat=12.97', 'distanceKm=5&pickupLat=91&pickupLon=77.59&dropLat=12.93&dropLon=77.62',
    ];
    for (const query of bad) assertError(await call(t.app, 'GET', `/rides/estimate?${query}`), 400, 'VALIDATION_FAILED');
    const onlyDistance = await call(t.app, 'GET', '/rides/estimate?distanceKm=7.5');
    assertOk(onlyDistance, 'distanceKm alone');
    assert.equal(onlyDistance.body.distanceKm, 7.5);
    const coordinates = await call(t.app, 'GET', `/rides/estimate?pickupLat=${TRIP.pickupLat}&pickupLon=${TRIP.pickupLon}&dropLat=${TRIP.dropLat}&dropLon=${TRIP.dropLon}`);
    assertOk(coordinates, 'coordinates alone');
    const both = await call(t.app, 'GET', `/rides/estimate?distanceKm=300&pickupLat=${TRIP.pickupLat}&pickupLon=${TRIP.pickupLon}&dropLat=${TRIP.dropLat}&dropLon=${TRIP.dropLon}`);
    assertOk(both);
    assert.equal(both.body.distanceKm, coordinates.body.distanceKm, 'the coordinates decide the distance');
    assert.equal(both.body.fare, coordinates.body.fare);
  });

  test('ride ids beyond any stored id are unknown rides (404), not server errors', async () => {
    const driver = await signUp(t, { role: 'DRIVER' });
    for (const id of ['2147483648', '99999999999', '999999999999999']) {
      assertError(await call(t.app, 'GET', `/rides/status/${id}`), 404, 'NOT_FOUND');
      assertError(await call(t.app, 'POST', `/rides/cancel/${id}`, { token: rider.token }), 404, 'NOT_FOUND');
      assertError(await call(t.app, 'POST', `/rides/feedback/${id}`, { token: rider.token, body: { rating: 5 } }), 404, 'NOT_FOUND');
      assertError(await call(t.app, 'POST', `/rides/location/${id}`, { token: driver.token, body: { lat: 1, lon: 1 } }), 404, 'NOT_FOUND');
      assertError(await call(t.app, 'POST', `/rides/status/${id}`, { token: driver.token, body: { status: 'ACCEPTED', driverId: String(driver.id) } }), 404, 'NOT_FOUND');
    }
  });

  test('list cursors beyond any stored id are not server errors', async () => {
    const booked = await bookRide(t, rider);
    for (const cursor of ['2147483648', '999999999999999']) {
      const open = await call(t.app, 'GET', `/rides/requested?cursor=${cursor}`);
      assert.ok([200, 400].includes(open.status), `requested with cursor ${cursor}: ${open.status} ${JSON.stringify(open.body)}`);
      if (open.status === 200) assert.ok(open.body.some((r: { id: number }) => r.id === booked.id), 'every ride is older than the cursor');
      const history = await call(t.app, 'GET', `/rides/history?cursor=${cursor}`, { token: rider.token });
      assert.ok([200, 400].includes(history.status), `history with cursor ${cursor}: ${history.status} ${JSON.stringify(history.body)}`);
      if (history.status === 200) assert.ok(history.body.some((r: { id: number }) => r.id === booked.id));
    }
  });

  test('limit and cursor of the ride lists are checked', async () => {
    const bad = ['limit=0', 'limit=201', 'limit=-1', 'limit=abc', 'limit=1.5', 'cursor=abc', 'cursor=0', 'cursor=-1', 'cursor=1.5'];
    for (const query of bad) {
      assertError(await call(t.app, 'GET', `/rides/requested?${query}`), 400, 'VALIDATION_FAILED');
      assertError(await call(t.app, 'GET', `/rides/history?${query}`, { token: rider.token }), 400, 'VALIDATION_FAILED');
    }
    for (const query of ['limit=1', 'limit=200', 'cursor=1', 'cursor=999999999']) {
      assertOk(await call(t.app, 'GET', `/rides/requested?${query}`), query);
      assertOk(await call(t.app, 'GET', `/rides/history?${query}`, { token: rider.token }), query);
    }
  });
});
