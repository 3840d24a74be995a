import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { zoneOf } from '../../src/platform/geo/zones.ts';
import { zoneName } from '../../web/src/ops/zone-names.ts';

// The console names a zone by a place an operator knows, not by its H3 cell id.

describe('zone names in the operator console', () => {
  test('a zone near a known place is named after it', () => {
    assert.deepEqual(zoneName(zoneOf({ lat: 12.9756, lon: 77.6066 })), { near: 'MG Road Metro' });
    assert.deepEqual(zoneName(zoneOf({ lat: 12.935, lon: 77.612 })), { near: 'Koramangala Forum Mall' });
  });

  test('elsewhere, by where its centre is', () => {
    const centre = (lat: number, lon: number) => {
      const name = zoneName(zoneOf({ lat, lon }));
      assert.ok('centre' in name, `${lat}, ${lon} is near no known place`);
      return name.centre;
    };
    assert.match(centre(28.6139, 77.209), /^28\.61\d° N, 77\.20\d° E$/);
    assert.match(centre(-33.8688, 151.2093), /^33\.8\d\d° S, 151\.2\d\d° E$/);
  });
});
