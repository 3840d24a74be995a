import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { drivable, HIGHWAY_SPEEDS_KMH, maxspeedKmh } from '../../../src/platform/routing/road-classes.ts';

describe('which ways a car drives', () => {
  test('road classes from motorway to service are driven at their speeds, faster classes faster', () => {
    const classes = ['motorway', 'trunk', 'primary', 'secondary', 'tertiary', 'unclassified', 'residential', 'service'];
    const speeds = classes.map((highway) => drivable({ highway })!.speedKmh);
    assert.deepEqual(speeds, classes.map((highway) => HIGHWAY_SPEEDS_KMH[highway]));
    for (let i = 1; i < speeds.length; i++) assert.ok(speeds[i] <= speeds[i - 1], `${classes[i]} is not faster than ${classes[i - 1]}`);
  });

  test('paths, steps, cycleways, construction and areas are not driven', () => {
    for (const highway of ['footway', 'path', 'steps', 'cycleway', 'pedestrian', 'track', 'construction', 'proposed', 'bus_stop']) {
      assert.equal(drivable({ highway }), undefined, highway);
    }
    assert.equal(drivable({ building: 'yes' }), undefined);
    assert.equal(drivable({ highway: 'service', area: 'yes' }), undefined);
  });

  test('access: the most specific tag decides', () => {
    assert.equal(drivable({ highway: 'residential', access: 'no' }), undefined);
    assert.equal(drivable({ highway: 'residential', access: 'private' }), undefined);
    assert.equal(drivable({ highway: 'residential', motor_vehicle: 'no' }), undefined);
    assert.ok(drivable({ highway: 'residential', access: 'no', motor_vehicle: 'yes' }), 'closed to all but motor vehicles');
    assert.equal(drivable({ highway: 'residential', access: 'yes', motorcar: 'no' }), undefined);
    assert.ok(drivable({ highway: 'residential', access: 'destination' }));
  });

  test('one-way: tagged, implied by motorways and roundabouts, reversed, or both ways', () => {
    assert.deepEqual(drivable({ highway: 'primary', oneway: 'yes' }), { speedKmh: 45, forward: true, backward: false });
    assert.deepEqual(drivable({ highway: 'primary', oneway: '-1' }), { speedKmh: 45, forward: false, backward: true });
    assert.deepEqual(drivable({ highway: 'primary' }), { speedKmh: 45, forward: true, backward: true });
    assert.deepEqual(drivable({ highway: 'motorway' }), { speedKmh: 80, forward: true, backward: false });
    assert.deepEqual(drivable({ highway: 'motorway', oneway: 'no' }), { speedKmh: 80, forward: true, backward: true });
    assert.deepEqual(drivable({ highway: 'tertiary', junction: 'roundabout' }), { speedKmh: 30, forward: true, backward: false });
    assert.equal(drivable({ highway: 'primary', oneway: 'reversible' }), undefined, 'a direction that changes by the hour');
  });

  test('a lower maxspeed wins; a higher one does not raise the class speed', () => {
    assert.equal(drivable({ highway: 'primary', maxspeed: '30' })!.speedKmh, 30);
    assert.equal(drivable({ highway: 'primary', maxspeed: '100' })!.speedKmh, 45);
    assert.equal(maxspeedKmh('50 km/h'), 50);
    assert.ok(Math.abs(maxspeedKmh('20 mph')! - 32.19) < 0.01);
    for (const value of ['IN:urban', 'signals', 'none', '0', undefined]) assert.equal(maxspeedKmh(value), undefined, String(value));
  });
});
