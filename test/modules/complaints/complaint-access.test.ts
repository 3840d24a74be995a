import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { complainantParty, readableComplaints } from '../../../src/modules/complaints/complaint-access.ts';
import { AppError } from '../../../src/platform/errors.ts';

const ride = { rider_id: 1, driver_id: 2 };
const forbidden = (error: unknown) => error instanceof AppError && error.statusCode === 403;

describe('complaint access rules', () => {
  test("the ride's rider and driver complain as themselves; nobody else may, operators included", () => {
    assert.equal(complainantParty({ id: 1, role: 'USER' }, ride), 'rider');
    assert.equal(complainantParty({ id: 2, role: 'DRIVER' }, ride), 'driver');
    assert.throws(() => complainantParty({ id: 3, role: 'DRIVER' }, ride), forbidden);
    assert.throws(() => complainantParty({ id: 4, role: 'ADMIN' }, ride), forbidden);
    assert.throws(() => complainantParty({ id: 2, role: 'DRIVER' }, { rider_id: 1, driver_id: null }), forbidden);
  });

  test('each party reads their own complaints, an operator every one, anyone else none', () => {
    assert.deepEqual(readableComplaints({ id: 1, role: 'RIDER' }, ride), { filedBy: 1 });
    assert.deepEqual(readableComplaints({ id: 2, role: 'DRIVER' }, ride), { filedBy: 2 });
    assert.equal(readableComplaints({ id: 9, role: 'ADMIN' }, ride), 'all');
    assert.throws(() => readableComplaints({ id: 3, role: 'USER' }, ride), forbidden);
  });
});
