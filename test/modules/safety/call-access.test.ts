import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { callParties } from '../../../src/modules/safety/call-access.ts';
import { AppError } from '../../../src/platform/errors.ts';

const status = (code: number) => (error: unknown) => error instanceof AppError && error.statusCode === code;
const ride = { id: 7, riderId: 1, driverId: 2, status: 'ACCEPTED' as const };

describe('who may call whom on a ride (pure rules)', () => {
  test('the rider calls the driver and the driver the rider, while the ride is ACCEPTED or PICKED', () => {
    assert.deepEqual(callParties({ id: 1, role: 'USER' }, ride), { calleeId: 2, callee: 'driver' });
    assert.deepEqual(callParties({ id: 2, role: 'DRIVER' }, { ...ride, status: 'PICKED' }), { calleeId: 1, callee: 'rider' });
  });

  test('nobody else, operators included; and no call before a driver accepted or after the end', () => {
    assert.throws(() => callParties({ id: 3, role: 'ADMIN' }, ride), status(403));
    assert.throws(() => callParties({ id: 1, role: 'USER' }, { ...ride, status: 'REQUESTED', driverId: null }), status(409));
    for (const ended of ['COMPLETED', 'CANCELLED'] as const) assert.throws(() => callParties({ id: 2, role: 'DRIVER' }, { ...ride, status: ended }), status(409));
  });
});
