import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Transactions } from '../../../src/db/transaction.ts';
import type { Booking, NewRide } from '../../../src/modules/rides/booking.repository.ts';
import { BookingWriter } from '../../../src/modules/rides/booking-writer.ts';
import { migratedDatabase } from '../../helpers/app.ts';

// The booking writer against the suite's database (SQLite by default, PostgreSQL with DATABASE_URL).

describe('bookings written many at a time', () => {
  let database: Awaited<ReturnType<typeof migratedDatabase>>;
  let riders: number[];
  /** The connection's units of work, counting how many the writer asked for; as if they were not grouped, so the writer batches on either database. */
  let units = 0;
  let transactions: Transactions;

  const booking = (riderId: number, place: string): Booking => {
    const now = Date.now();
    const ride: NewRide = {
      rider_id: riderId,
      driver_id: null,
      status: 'REQUESTED',
      ride_type: 'mini',
      pickup_location: place,
      drop_location: null,
      pickup_lat: 12.97,
      pickup_lon: 77.59,
      drop_lat: 12.93,
      drop_lon: 77.62,
      pickup_plus_code: '7J4VXHCV+MR',
      drop_plus_code: '7J4VWJM6+22',
      pickup_zone: '8861892d8bfffff',
      pickup_landmark: null,
      drop_landmark: null,
      distance_km: 5.2,
      duration_minutes: 13,
      surge_multiplier: 1,
      pricing_version: 1,
      fare: 120,
      payment_mode: 'CASH',
      payment_status: 'PENDING',
      payment_reference: null,
      start_otp: '1234',
      end_otp: '5678',
      created_at: now,
      stops: '[]',
      scheduled_at: null,
    };
    const notice = { user_id: riderId, title: 'Looking for a driver', message: place, text_name: null, text_values: null, channel: 'in_app', event_type: 'RIDE_REQUESTED', read: 0, status: 'delivered', created_at: now, delivered_at: now };
    return { ride, notice };
  };

  before(async () => {
    database = await migratedDatabase();
    const inner = database.connection.transactions;
    transactions = { run: (work, options) => (units++, inner.run(work, options)), groupsUnits: false };
    riders = await inner.run(async ({ db }) => {
      const rows = await db
        .insertInto('users')
        .values(Array.from({ length: 13 }, (_, i) => ({ email: `writer-${i}@test.local`, name: `rider ${i}`, password_hash: 'x', role: 'USER', created_at: 1, updated_at: 1 })))
        .returning('id')
        .execute();
      return rows.map((row) => row.id);
    });
  });
  after(() => database.close());

  test('bookings that arrive together share units of work, each saved with its own notice once', async () => {
    const writer = new BookingWriter(transactions, 3);
    units = 0;
    const noticed: number[] = [];
    const saved = await Promise.all(riders.slice(0, 10).map((rider) => writer.write(booking(rider, `alone ${rider}`), (_, { ride, noticeId }) => noticed.push(ride.id, noticeId))));
    assert.equal(units, 1, 'one unit for the ten');
    assert.deepEqual(
      saved.map((ride) => [ride?.rider_id, ride?.pickup_location, ride?.open_slot]),
      riders.slice(0, 10).map((rider) => [rider, `alone ${rider}`, 1]),
    );
    const notices = await database.connection.db.selectFrom('notifications').select(['user_id', 'ride_id', 'message']).where('message', 'like', 'alone %').orderBy('user_id').execute();
    assert.deepEqual(
      notices.map((n) => [n.user_id, n.ride_id, n.message]),
      saved.map((ride) => [ride!.rider_id, ride!.id, `alone ${ride!.rider_id}`]),
    );
    assert.equal(noticed.length, 20, 'what follows the commit is arranged once per booking');
  });

  test('where units are committed together anyway, each booking is a unit of its own', async () => {
    const writer = new BookingWriter({ ...transactions, groupsUnits: true }, 3);
    units = 0;
    const saved = await Promise.all(riders.slice(0, 3).map((rider) => writer.write(booking(rider, `grouped ${rider}`), () => {})));
    assert.equal(units, 3);
    assert.deepEqual(
      saved.map((ride) => ride?.pickup_location),
      riders.slice(0, 3).map((rider) => `grouped ${rider}`),
    );
  });

  test('one rider’s bookings at once take different slots, up to the limit', async () => {
    const writer = new BookingWriter(transactions, 3);
    const rider = riders[10];
    const saved = await Promise.all(Array.from({ length: 5 }, (_, i) => writer.write(booking(rider, `same ${i}`), () => {})));
    assert.deepEqual(saved.filter((ride) => ride !== undefined).map((ride) => ride.open_slot).sort(), [1, 2, 3]);
    assert.equal(saved.filter((ride) => ride === undefined).length, 2, 'the rest find every slot taken');
  });

  test('a slot freed among taken ones is the next booking’s, and none is found while all are taken', async () => {
    const writer = new BookingWriter(transactions, 3);
    const rider = riders[12];
    const book = async (place: string) => (await writer.write(booking(rider, place), () => {}))?.open_slot;
    const end = (slot: number) =>
      database.connection.transactions.run(({ db }) =>
        db.updateTable('rides').set({ status: 'CANCELLED' }).where('rider_id', '=', rider).where('open_slot', '=', slot).where('status', '=', 'REQUESTED').execute(),
      );
    assert.deepEqual([await book('gap 1'), await book('gap 2'), await book('gap 3')], [1, 2, 3]);
    await end(2);
    assert.equal(await book('gap 4'), 2, 'the freed middle slot');
    await end(1);
    await end(3);
    assert.equal(await book('gap 5'), 1, 'the lowest free slot');
    assert.equal(await book('gap 6'), 3);
    assert.equal(await book('gap 7'), undefined, 'all three taken');
  });

  test('a batch whose connection was refused is tried again whole, and saved', async () => {
    let refusals = 2;
    const crowded: Transactions = {
      groupsUnits: false,
      run: (work, options) => (refusals-- > 0 ? Promise.reject(Object.assign(new Error('sorry, too many clients already'), { code: '53300' })) : transactions.run(work, options)),
    };
    const writer = new BookingWriter(crowded, 3);
    units = 0;
    const saved = await Promise.all(riders.slice(5, 8).map((rider) => writer.write(booking(rider, `crowded ${rider}`), () => {})));
    assert.deepEqual(
      saved.map((ride) => ride?.pickup_location),
      riders.slice(5, 8).map((rider) => `crowded ${rider}`),
    );
    assert.equal(units, 1, 'after two refusals, one unit saved the three together');
  });

  test('a database that keeps refusing connections fails the booking with its refusal, after a few tries', async () => {
    let tries = 0;
    const full: Transactions = { groupsUnits: false, run: () => (tries++, Promise.reject(Object.assign(new Error('sorry, too many clients already'), { code: '53300' }))) };
    await assert.rejects(new BookingWriter(full, 3).write(booking(riders[9], 'full'), () => {}), { code: '53300' });
    assert.equal(tries, 4, 'the first try and three more');
  });

  test('a booking that fails does not take the others of its batch with it', async () => {
    const writer = new BookingWriter(transactions, 3);
    const missingRider = Math.max(...riders) + 1000;
    units = 0;
    const mixed = [riders[11], missingRider, riders[0], riders[1]].map((rider) => writer.write(booking(rider, `mixed ${rider}`), () => {}));
    const results = await Promise.allSettled(mixed);
    assert.deepEqual(
      results.map((result) => result.status),
      ['fulfilled', 'rejected', 'fulfilled', 'fulfilled'],
    );
    assert.equal(units, 1 + 4, 'the batch of four failed, then each was written alone');
    const mine = await database.connection.db.selectFrom('rides').select('rider_id').where('pickup_location', 'like', 'mixed %').orderBy('rider_id').execute();
    assert.deepEqual(
      mine.map((row) => row.rider_id),
      [riders[0], riders[1], riders[11]],
    );
  });
});
