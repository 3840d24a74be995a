import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { FareBreakdown, Ride } from '../../../web/src/api/types.ts';
import { mount } from './dom.ts';

// The fare's parts on an open ride, in the rider and driver apps: the upfront quote, then waiting,
// tolls and parking as the driver adds them (each a ride.updated that renders the card again).

const { h, render: draw } = await import('preact');
const { act } = await import('preact/test-utils');
const { FareBreakdownCard, fareBreakdownOf } = await import('../../../web/src/ui/fare-breakdown.tsx');

const UPFRONT: FareBreakdown = {
  pricingVersion: 2,
  rideType: 'mini',
  distanceKm: 10,
  durationMinutes: 25,
  baseFare: 60,
  baseKm: 3,
  distanceFare: 98,
  timeFare: 50,
  minimumApplied: false,
  surgeMultiplier: 1,
  night: false,
  nightMultiplier: 1,
  distanceAndTimeFare: 208,
  stops: 0,
  stopsFare: 0,
  waitingMinutes: 0,
  waitingFare: 0,
  charges: [],
  tollsFare: 0,
  parkingFare: 0,
  fare: 208,
  upfrontFare: 208,
  recomputed: false,
  recomputeReason: null,
  tripDistanceKm: null,
  tripMinutes: null,
};

const facts = (root: HTMLElement) => [...root.querySelectorAll('dt')].map((term) => `${term.textContent}: ${term.nextElementSibling?.textContent}`);

async function card(breakdown: FareBreakdown, root = mount(), done = false): Promise<HTMLElement> {
  await act(() => draw(h(FareBreakdownCard, { breakdown, done }), root));
  return root;
}

describe('the fare breakdown on a ride', () => {
  test('the upfront quote: base covering its kilometres, distance beyond them, time, and the total so far', async () => {
    const root = await card(UPFRONT);
    assert.deepEqual(facts(root), ['Base (first 3.0 km): ₹60', 'Distance (10 km): ₹98', 'Time (25 min): ₹50', 'Distance and time: ₹208', 'Total so far: ₹208']);
  });

  test('waiting, a toll and a night drop appear as they are added, each as its own line, and the total follows', async () => {
    const root = await card(UPFRONT);
    const later: FareBreakdown = {
      ...UPFRONT,
      night: true,
      nightMultiplier: 1.5,
      distanceAndTimeFare: 312,
      waitingMinutes: 4,
      waitingFare: 8,
      charges: [{ kind: 'toll', amountInInr: 65, note: 'Electronic City flyover', addedAt: '2026-11-27T23:40:00.000Z' }],
      tollsFare: 65,
      fare: 385,
    };
    await card(later, root);
    assert.deepEqual(facts(root), [
      'Base (first 3.0 km): ₹60',
      'Distance (10 km): ₹98',
      'Time (25 min): ₹50',
      'Night: × 1.5',
      'Distance and time: ₹312',
      'Waiting (4 min): ₹8',
      'Toll: Electronic City flyover: ₹65',
      'Total so far: ₹385',
    ]);
    assert.match(root.textContent ?? '', /Upfront fare ₹208; waiting, stops, tolls and parking come on top\./);
  });

  test('a fare recomputed from the trip says so and why', async () => {
    const root = await card({ ...UPFRONT, recomputed: true, recomputeReason: 'the trip was 32 % longer than quoted', fare: 260, distanceAndTimeFare: 260 }, mount(), true);
    assert.match(root.textContent ?? '', /Recomputed: the trip was 32 % longer than quoted\./);
    assert.ok(facts(root).includes('Total: ₹260'));
  });

  test('stops and the waiting at them, and a fare that follows a changed destination, say so', async () => {
    const reason = "the rider changed the destination to HSR Layout: the route confirmed (12 km, 30 min: ₹246) replaces the booking's (10 km, 25 min: ₹208)";
    const root = await card(
      { ...UPFRONT, stops: 2, stopsFare: 50, waitingMinutes: 6, stopWaitingMinutes: 5, waitingFare: 12, recomputed: true, recomputeReason: reason, distanceAndTimeFare: 246, fare: 308 },
      mount(),
      true,
    );
    assert.ok(facts(root).includes('Stops (2): ₹50'));
    assert.ok(facts(root).includes('Waiting (6 min, 5 min at stops): ₹12'));
    assert.ok((root.textContent ?? '').includes(`Recomputed: ${reason}.`));
  });

  test('a ride without a breakdown (before the service gives one) shows none', () => {
    assert.equal(fareBreakdownOf({ id: 1, fare: 100 } as Ride), null);
    assert.equal(fareBreakdownOf({ id: 1, fare: 208, fareBreakdown: UPFRONT } as unknown as Ride), UPFRONT);
  });
});
