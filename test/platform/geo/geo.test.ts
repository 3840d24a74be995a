import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { haversineKm, plusCode, type Point } from '../../../src/platform/geo/geo.ts';
import { mulberry32 } from '../../helpers/geo.ts';

const MEAN_EARTH_RADIUS_KM = 6371.0088;

/** Central angle from 3-D unit vectors (atan2 of cross and dot product): another route to the same sphere distance. */
function vectorDistanceKm(a: Point, b: Point): number {
  const unit = ({ lat, lon }: Point) => {
    const φ = (lat * Math.PI) / 180;
    const λ = (lon * Math.PI) / 180;
    return [Math.cos(φ) * Math.cos(λ), Math.cos(φ) * Math.sin(λ), Math.sin(φ)];
  };
  const [ax, ay, az] = unit(a);
  const [bx, by, bz] = unit(b);
  const cross = Math.hypot(ay * bz - az * by, az * bx - ax * bz, ax * by - ay * bx);
  const dot = ax * bx + ay * by + az * bz;
  return Math.atan2(cross, dot) * MEAN_EARTH_RADIUS_KM;
}

const within = (actual: number, expected: number, relative: number, label: string) =>
  assert.ok(Math.abs(actual - expected) <= expected * relative, `${label}: expected ${expected} ± ${relative * 100} %, got ${actual}`);

describe('haversineKm', () => {
  test('Bengaluru MG Road to Mumbai CST is about 836 km', () => {
    const distance = haversineKm({ lat: 12.9756, lon: 77.605 }, { lat: 18.94, lon: 72.8353 });
    // 834.30 km on the WGS84 ellipsoid (Vincenty); the mean-radius sphere gives 836.41 km.
    within(distance, 834.3, 0.005, 'against the ellipsoidal distance');
    within(distance, 836.405, 1e-5, 'against the sphere of mean radius 6371.0088 km');
  });

  test('the distance from a point to itself is 0', () => {
    for (const point of [{ lat: 0, lon: 0 }, { lat: 12.9756, lon: 77.605 }, { lat: -89.9, lon: 179.9 }, { lat: 90, lon: -180 }]) {
      assert.equal(haversineKm(point, point), 0);
    }
  });

  test('antipodes are half the circumference apart, about 20015 km, and never NaN', () => {
    const half = Math.PI * MEAN_EARTH_RADIUS_KM;
    within(half, 20015.1, 1e-5, 'half circumference');
    const pairs: Array<[Point, Point]> = [
      [{ lat: 0, lon: 0 }, { lat: 0, lon: 180 }],
      [{ lat: 90, lon: 0 }, { lat: -90, lon: 0 }],
      [{ lat: 12.9756, lon: 77.605 }, { lat: -12.9756, lon: -102.395 }],
      [{ lat: 47.36559, lon: 8.524997 }, { lat: -47.36559, lon: -171.475003 }],
      // Pairs where the haversine term rounds to just above 1 in floating point.
      [{ lat: 14.5086, lon: 69.4373 }, { lat: -14.5086, lon: -110.5627 }],
      [{ lat: -33.3422, lon: -56.6322 }, { lat: 33.3422, lon: 123.3678 }],
    ];
    for (const [a, b] of pairs) {
      const distance = haversineKm(a, b);
      assert.ok(Number.isFinite(distance), `${JSON.stringify([a, b])} gave ${distance}`);
      within(distance, half, 1e-9, JSON.stringify([a, b]));
    }
  });

  test('one degree of latitude is 111.195 km and a quarter meridian 10007.6 km', () => {
    within(haversineKm({ lat: 10, lon: 30 }, { lat: 11, lon: 30 }), 111.19508, 1e-6, 'one degree');
    within(haversineKm({ lat: 0, lon: 30 }, { lat: 90, lon: 30 }), 10007.5572, 1e-6, 'equator to pole');
  });

  test('crossing the antimeridian takes the short way', () => {
    within(haversineKm({ lat: 0, lon: 179.99 }, { lat: 0, lon: -179.99 }), 2.2239, 1e-4, 'across ±180');
    within(haversineKm({ lat: 89.99, lon: 0 }, { lat: 89.99, lon: 180 }), 2.2239, 1e-4, 'across the north pole');
  });

  test('is symmetric and agrees with the vector formula on random pairs', () => {
    const random = mulberry32(7);
    for (let i = 0; i < 2000; i++) {
      const a = { lat: Math.asin(2 * random() - 1) * (180 / Math.PI), lon: random() * 360 - 180 };
      // Half the pairs are close together, where rounding errors would show most.
      const b = i % 2 === 0
        ? { lat: Math.asin(2 * random() - 1) * (180 / Math.PI), lon: random() * 360 - 180 }
        : { lat: Math.max(-90, Math.min(90, a.lat + (random() - 0.5) * 0.5)), lon: a.lon + (random() - 0.5) * 0.5 };
      const distance = haversineKm(a, b);
      assert.equal(distance, haversineKm(b, a));
      assert.ok(Math.abs(distance - vectorDistanceKm(a, b)) < 1e-6, `${JSON.stringify([a, b])}: ${distance} vs ${vectorDistanceKm(a, b)}`);
    }
  });
});

// Open Location Code, 10 digits. Exact reference: floor((lat + 90) × 8000) and floor((lon + 180) × 8000)
// written as five base-20 digits each, interleaved latitude first, "+" after the eighth digit.
const ALPHABET = '23456789CFGHJMPQRVWX';
const PLACE_VALUES = [160_000n, 8000n, 400n, 20n, 1n];

/** Independent encoder working on whole micro-degrees with BigInt, so no floating point is involved. */
function referencePlusCode(latMicro: number, lonMicro: number): string {
  // 1/8000 degree is 125 micro-degrees.
  const latCells = (BigInt(latMicro) + 90_000_000n) / 125n;
  const lonCells = (BigInt(lonMicro) + 180_000_000n) / 125n;
  let code = '';
  for (const place of PLACE_VALUES) {
    code += ALPHABET[Number((latCells / place) % 20n)] + ALPHABET[Number((lonCells / place) % 20n)];
  }
  return `${code.slice(0, 8)}+${code.slice(8)}`;
}

/**
 * Rows of Google's test_data/encoding.csv (github.com/google/open-location-code). Codes longer than
 * ten digits are cut to their first ten, which is the ten-digit code of the same point.
 */
const PUBLISHED: Array<[lat: number, lon: number, code: string]> = [
  [20.3700625, 2.7821875, '7FG49QCJ+2V'],
  [20.3701125, 2.782234375, '7FG49QCJ+2VX'],
  [20.3701135, 2.78223535156, '7FG49QCJ+2VXGJ'],
  [47.0000625, 8.0000625, '8FVC2222+22'],
  [-41.2730625, 174.7859375, '4VCPPQGP+Q9'],
  [-89.9999375, -179.9999375, '22222222+22'],
  [1, 1, '6FH32222+222'],
  [90, 1, 'CFX3X2X2+X2'],
  [20.3701135, 362.78223535156, '7FG49QCJ+2VXGJ'],
  [47.0000625, 728.0000625, '8FVC2222+22'],
  [-41.2730625, 1254.7859375, '4VCPPQGP+Q9'],
  [20.3701135, -357.217764648, '7FG49QCJ+2VXGJ'],
  [47.0000625, -711.9999375, '8FVC2222+22'],
  [-41.2730625, -905.2140625, '4VCPPQGP+Q9'],
  [1.2, 3.4, '6FH56C22+22'],
  [37.539669125, -122.375069724, '849VGJQF+VX7QR3J'],
  [35.6, 3.033, '8F75J22M+26'],
  [-2.804, 7.003, '6F9952W3+C6222'],
  [13.9, 164.88, '7V56WV2J+2222'],
  [70.3, -87.64, 'C62J8926+22222'],
  [66.89, -106, '95RPV2R2+22'],
  [2.5, -64.23, '67JQGQ2C+222'],
  [-56.7, -47.2, '38MJ8R22+222222'],
  [-35.849, -93.75, '46P85722+C222'],
  [65.748, 24.316, '9GQ6P8X8+6C22'],
  [-4.542, 148.638, '6R7CFJ5Q+66222'],
  [-37.014, -159.936, '43J2X3P7+CJ'],
  [58.66, 149.17, '9RCFM56C+22'],
  [10.734, -168.294, '722HPPM4+JC'],
  [-25.798, -59.812, '5862652Q+R6'],
  [-19.212, 107.423, '5PG9QCQF+66'],
  [-18.32, 96.397, '5MHRM9JW+2R'],
  [16.179, 150.075, '7R8G53HG+J222'],
  [-55.574, -70.061, '37PFCWGQ+CJ22'],
  [-68.54504, -62.81725, '373VF53M+X4J'],
  [50.342, -112.534, '95298FR8+RC22222'],
  [80.0100000001, 58.57, 'CHGW2H6C+2222222'],
  [80.0099999999, 58.57, 'CHGW2H5C+X2RRRRR'],
  [-80.0099999999, 58.57, '2HFWXHRC+2222222'],
  [-80.0100000001, 58.57, '2HFWXHQC+X2RRRRR'],
  [68.3500147997595, 113.625636875353, '9PWM9J2G+272FWJV'],
  [38.1176000887231, 165.441989844555, '8VC74C9R+2QX445C'],
  [-28.1217794010122, -154.066811473758, '5337VWHM+77PR2GR'],
];

const PLUS_CODE = /^[23456789CFGHJMPQRVWX]{8}\+[23456789CFGHJMPQRVWX]{2}$/;

describe('plusCode', () => {
  test('Zurich (47.365590, 8.524997) is 8FVC9G8F+6X', () => {
    assert.equal(plusCode({ lat: 47.36559, lon: 8.524997 }), '8FVC9G8F+6X');
  });

  test('matches the published Open Location Code test data', () => {
    for (const [lat, lon, code] of PUBLISHED) {
      assert.equal(plusCode({ lat, lon }), code.slice(0, 11), `(${lat}, ${lon})`);
    }
  });

  test('agrees with an exact integer encoder on random points and on cell edges', () => {
    const random = mulberry32(42);
    for (let i = 0; i < 3000; i++) {
      let latMicro = Math.floor(random() * 180_000_000) - 90_000_000;
      let lonMicro = Math.floor(random() * 360_000_000) - 180_000_000;
      // Every third point sits exactly on a 1/8000° grid line, where a floating-point slip shows.
      if (i % 3 === 0) {
        latMicro -= latMicro % 125;
        lonMicro -= lonMicro % 125;
      }
      const expected = referencePlusCode(latMicro, lonMicro);
      assert.equal(plusCode({ lat: latMicro / 1e6, lon: lonMicro / 1e6 }), expected, `(${latMicro / 1e6}, ${lonMicro / 1e6})`);
    }
  });

  test('the reference encoder reproduces the Zurich example, so it encodes the same thing', () => {
    assert.equal(referencePlusCode(47_365_590, 8_524_997), '8FVC9G8F+6X');
    assert.equal(referencePlusCode(-89_999_937, -179_999_937), '22222222+22');
  });

  test('poles and the antimeridian give 11-character codes without throwing', () => {
    const edges: Array<[Point, string]> = [
      [{ lat: 90, lon: 0 }, 'CFX2X2X2+X2'],
      [{ lat: -90, lon: 0 }, '2F222222+22'],
      [{ lat: 0, lon: 180 }, '62G22222+22'],
      [{ lat: 0, lon: -180 }, '62G22222+22'],
      [{ lat: 90, lon: 180 }, 'C2X2X2X2+X2'],
      [{ lat: -90, lon: -180 }, '22222222+22'],
      [{ lat: 89.9999999, lon: 179.9999999 }, 'CVXXXXXX+XX'],
      [{ lat: -89.9999999, lon: -179.9999999 }, '22222222+22'],
    ];
    for (const [point, code] of edges) {
      const encoded = plusCode(point);
      assert.match(encoded, PLUS_CODE, JSON.stringify(point));
      assert.equal(encoded.length, 11);
      assert.equal(encoded, code, JSON.stringify(point));
    }
  });

  test('longitude 180 is the same place as -180, and latitude beyond 90 is the pole', () => {
    assert.equal(plusCode({ lat: 1, lon: 180 }), plusCode({ lat: 1, lon: -180 }));
    assert.equal(plusCode({ lat: 1, lon: 180 }).slice(0, 4), '62H2', 'published: 1,180,4 → 62H20000+');
    assert.equal(plusCode({ lat: 1, lon: 181 }).slice(0, 4), '62H3', 'published: 1,181,4 → 62H30000+');
    assert.equal(plusCode({ lat: 92, lon: 1 }), plusCode({ lat: 90, lon: 1 }));
    assert.equal(plusCode({ lat: 92, lon: 1 }).slice(0, 4), 'CFX3', 'published: 92,1,4 → CFX30000+');
    assert.equal(plusCode({ lat: -92, lon: 1 }), plusCode({ lat: -90, lon: 1 }));
    assert.equal(plusCode({ lat: -90, lon: 1 }), '2F232222+22');
  });
});
