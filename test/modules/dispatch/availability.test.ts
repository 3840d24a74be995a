import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ServiceEvents } from '../../../src/events.ts';
import { Availability, type DriverState } from '../../../src/modules/dispatch/availability.ts';
import { byVehicle } from '../../../src/modules/drivers/vehicles.ts';
import { MemoryEventBus } from '../../../src/platform/event-bus.ts';
import { MemoryDriverIndex } from '../../../src/platform/geo/memory-driver-index.ts';
import { TestClock } from '../../helpers/app.ts';

test('drivers reporting in the same moment have their states read together, in one lookup', async () => {
  const clock = new TestClock();
  const lookups: number[][] = [];
  const availability = new Availability({
    indexes: byVehicle(() => new MemoryDriverIndex(() => clock.now())),
    lookup: async (driverIds) => {
      lookups.push([...driverIds]);
      return new Map(driverIds.map((id): [number, DriverState] => [id, { vehicle: 'mini', busy: false, offered: id % 2 === 0 }]));
    },
    position: async () => undefined,
    bus: new MemoryEventBus<ServiceEvents>(),
    clock,
  });
  const reports = Array.from({ length: 120 }, (_, i) => ({ driverId: i + 1, lat: 12.97 + i * 1e-4, lon: 77.59, updatedAt: clock.now() }));
  await Promise.all(reports.map((position) => availability.onPosition(position)));
  assert.deepEqual(lookups, [reports.map((position) => position.driverId)], 'one lookup for all of them');
  // The free ones (odd ids) are available now; known states need no lookup.
  const found = (await availability.snapshot()).candidates({ lat: 12.975, lon: 77.59 }, 'mini', 5, 200);
  assert.deepEqual(found.map((driver) => driver.driverId).sort((a, b) => a - b), reports.filter((p) => p.driverId % 2 === 1).map((p) => p.driverId));
  await Promise.all(reports.map((position) => availability.onPosition(position)));
  assert.equal(lookups.length, 1, 'states are remembered');
});

test('a position whose state read was overtaken by a withdrawal (an offer, going offline) does not put the driver back', async () => {
  const clock = new TestClock();
  const answers: Array<() => void> = [];
  let lookups = 0;
  const availability = new Availability({
    indexes: byVehicle(() => new MemoryDriverIndex(() => clock.now())),
    // The database answers only when the test lets it, as a busy one answers late.
    lookup: (driverIds) => {
      lookups++;
      return new Promise((resolve) => answers.push(() => resolve(new Map(driverIds.map((id): [number, DriverState] => [id, { vehicle: 'mini', busy: false, offered: false }])))));
    },
    position: async () => undefined,
    bus: new MemoryEventBus<ServiceEvents>(),
    clock,
  });
  const position = { driverId: 7, lat: 12.97, lon: 77.59, updatedAt: clock.now() };
  const reported = availability.onPosition(position);
  await new Promise((resolve) => setImmediate(resolve));
  await availability.withdraw(7);
  answers.shift()!();
  await reported;
  const candidates = async () => (await availability.snapshot()).candidates({ lat: 12.97, lon: 77.59 }, 'mini', 5, 200).map((driver) => driver.driverId);
  assert.deepEqual(await candidates(), [], 'the withdrawal stands');

  // The state read before the withdrawal was not kept: the next report asks again, and puts the driver in.
  const next = availability.onPosition(position);
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(lookups, 2);
  answers.shift()!();
  await next;
  assert.deepEqual(await candidates(), [7]);
});

test("word of a change that arrives while a report's state is read (a profile saved a moment before, heard back over the bus) does not lose the report", async () => {
  const clock = new TestClock();
  const answers: Array<() => void> = [];
  const availability = new Availability({
    indexes: byVehicle(() => new MemoryDriverIndex(() => clock.now())),
    lookup: (driverIds) => new Promise((resolve) => answers.push(() => resolve(new Map(driverIds.map((id): [number, DriverState] => [id, { vehicle: 'mini', busy: false, offered: false }]))))),
    // Still online: the main index has the driver.
    position: async (driverId) => ({ driverId, lat: 12.97, lon: 77.59, updatedAt: clock.now() }),
    bus: new MemoryEventBus<ServiceEvents>(),
    clock,
  });
  const reported = availability.onPosition({ driverId: 9, lat: 12.97, lon: 77.59, updatedAt: clock.now() });
  await new Promise((resolve) => setImmediate(resolve));
  await availability.changed(9);
  answers.shift()!();
  // The state is read again, fresh, and the driver goes in.
  for (let turns = 0; turns < 100 && answers.length === 0; turns++) await new Promise((resolve) => setImmediate(resolve));
  assert.equal(answers.length, 1, 'the state is read again');
  answers.shift()!();
  await reported;
  const found = (await availability.snapshot()).candidates({ lat: 12.97, lon: 77.59 }, 'mini', 5, 200).map((driver) => driver.driverId);
  assert.deepEqual(found, [9]);
});
