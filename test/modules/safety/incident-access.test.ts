import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { assertSosWindow, contactKind, reporterParty } from '../../../src/modules/safety/incident-access.ts';
import { AppError } from '../../../src/platform/errors.ts';

const status = (code: number) => (error: unknown) => error instanceof AppError && error.statusCode === code;
const ride = { id: 7, riderId: 1, driverId: 2, status: 'ACCEPTED' as const, completedAt: null, cancelledAt: null };
const MINUTE = 60_000;

describe('who may raise an SOS, and when (pure rules)', () => {
  test("the ride's rider and driver report as themselves; nobody else, operators included", () => {
    assert.equal(reporterParty({ id: 1, role: 'USER' }, ride), 'rider');
    assert.equal(reporterParty({ id: 2, role: 'DRIVER' }, ride), 'driver');
    assert.throws(() => reporterParty({ id: 3, role: 'ADMIN' }, ride), status(403));
    assert.throws(() => reporterParty({ id: 2, role: 'DRIVER' }, { riderId: 1, driverId: null }), status(403));
  });

  test('while a driver comes or the trip runs, and up to 30 minutes after a ride with a driver ended', () => {
    const end = 1_000_000_000;
    assertSosWindow(ride, end);
    assertSosWindow({ ...ride, status: 'PICKED' }, end);
    const completed = { ...ride, status: 'COMPLETED' as const, completedAt: new Date(end).toISOString() };
    assertSosWindow(completed, end + 30 * MINUTE - 1);
    assert.throws(() => assertSosWindow(completed, end + 30 * MINUTE), status(409));
    assert.throws(() => assertSosWindow({ ...ride, status: 'REQUESTED' }, end), status(409));
    assert.throws(() => assertSosWindow({ ...ride, status: 'CANCELLED', driverId: null, cancelledAt: new Date(end).toISOString() }, end), status(409));
  });

  test('an emergency contact is an e-mail, a phone number, or nobody reachable', () => {
    assert.equal(contactKind(' asha@example.com '), 'email');
    assert.equal(contactKind('+91 98450 12345'), 'phone');
    assert.equal(contactKind('(080) 2222-3333'), 'phone');
    assert.equal(contactKind('Mom'), null);
    assert.equal(contactKind('12345'), null);
    assert.equal(contactKind(''), null);
  });
});
