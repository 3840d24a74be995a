import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { zoneOf } from '../../src/platform/geo/zones.ts';
import { zoneName } from '../../web/src/ops/zone-names.ts';

// The console names a zone by a place an operator knows, not by its H3 cell id.

describe('zone names in the operator console', () => {
  test('a zone near a known place is named after it', () => {
    assert.equal(zoneName(zoneOf({ lat: 12.9756, lon: 77.6066 })), 'Near MG Road Metro');
    assert.equal(zoneName(zoneOf({ lat: 12.935, lon: 77.612 })), 'Near Koramangala Forum Mall');
  });

  test('elsewhere, by where its centre is', () => {
    assert.match(zoneName(zoneOf({ lat: 28.6139, lon: 77.209 })), /^28\.61\d° N, 77\.20\d° E$/);
    assert.match(zoneName(zoneOf({ lat: -33.8688, lon: 151.2093 })), /^33\.8\d\d° S, 151\.2\d\d° E$/);
  });
});
