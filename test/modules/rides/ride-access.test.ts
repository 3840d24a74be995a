import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  acceptingDriver,
  assertDriverOf,
  assertNotOwnRide,
  assertStep,
  cancelledBy,
  feedbackParty,
  publicPositionVisible,
  viewerOf,
} from '../../../src/modules/rides/ride-access.ts';
import { AppError } from '../../../src/platform/errors.ts';

// The access rules of decisions.md "Who may do what", as pure functions.

const rider = { id: 1, role: 'USER' as const };
const driver = { id: 2, role: 'DRIVER' as const };
const otherDriver = { id: 3, role: 'DRIVER' as const };
const admin = { id: 9, role: 'ADMIN' as const };
const ride = { id: 7, rider_id: 1, driver_id: 2, status: 'ACCEPTED' };

const refused = (work: () => unknown, status: number, code?: string) =>
  assert.throws(work, (error: unknown) => error instanceof AppError && error.statusCode === status && (code === undefined || error.code === code));

describe('ride access rules', () => {
  test('the viewer follows the caller: rider, driver, admin, or public', () => {
    assert.equal(viewerOf(rider, ride), 'rider');
    assert.equal(viewerOf(driver, ride), 'driver');
    assert.equal(viewerOf(admin, ride), 'admin');
    assert.equal(viewerOf(otherDriver, ride), 'public');
    assert.equal(viewerOf(null, ride), 'public');
  });

  test('a driver accepts for themself; an admin for anyone; riders not at all', () => {
    assert.equal(acceptingDriver(driver, '2'), 2);
    assert.equal(acceptingDriver(admin, 3), 3);
    refused(() => acceptingDriver(driver, 3), 403);
    refused(() => acceptingDriver(rider, 2), 403);
    refused(() => acceptingDriver(driver, undefined), 400);
    refused(() => assertNotOwnRide(ride, 1), 403, 'OWN_RIDE');
  });

  test("steps need the ride's driver (or an admin) and the right state", () => {
    assert.doesNotThrow(() => assertStep(driver, ride, 'ACCEPTED', 'PICKED'));
    assert.doesNotThrow(() => assertStep(admin, ride, 'ACCEPTED', 'PICKED'));
    refused(() => assertStep(otherDriver, ride, 'ACCEPTED', 'PICKED'), 403);
    refused(() => assertStep(rider, ride, 'ACCEPTED', 'PICKED'), 403);
    refused(() => assertStep(driver, ride, 'PICKED', 'COMPLETED'), 409, 'INVALID_TRANSITION');
    refused(() => assertDriverOf(otherDriver, ride, 'report'), 403);
  });

  test('cancelling and feedback name the party, and refuse anyone else', () => {
    assert.equal(cancelledBy(rider, ride), 'rider');
    assert.equal(cancelledBy(driver, ride), 'driver');
    assert.equal(cancelledBy(admin, ride), 'admin');
    refused(() => cancelledBy(otherDriver, ride), 403);
    assert.equal(feedbackParty(rider, ride), 'rider');
    assert.equal(feedbackParty(driver, ride), 'driver');
    refused(() => feedbackParty(admin, ride), 403);
  });

  test('strangers see the position while the driver comes, during the trip only when shared, never after', () => {
    assert.equal(publicPositionVisible('REQUESTED', true), false);
    assert.equal(publicPositionVisible('ACCEPTED', false), true);
    assert.equal(publicPositionVisible('PICKED', true), true);
    assert.equal(publicPositionVisible('PICKED', false), false);
    assert.equal(publicPositionVisible('COMPLETED', true), false);
    assert.equal(publicPositionVisible('CANCELLED', true), false);
  });
});
