import assert from 'node:assert/strict';
import { afterEach, describe, mock, test } from 'node:test';
import type { Api } from '../../../web/src/api/endpoints.ts';
import type { Ride, TripCharge } from '../../../web/src/api/types.ts';
import { mount } from './dom.ts';

// What an open ride adds to its fare, live in both apps: the waiting clock from the driver's arrival,
// and the tolls and parking the driver adds (each a ride.updated that renders the screen again).

const { h, render: draw } = await import('preact');
const { act } = await import('preact/test-utils');
const { AppProvider } = await import('../../../web/src/ui/app-context.tsx');
const { AddedCharges, WaitingClock, waitingCharge } = await import('../../../web/src/ui/trip-extras.tsx');

const settings = { mapTileUrl: '', mapAttribution: '', checkoutUrl: '', driverApprovalRequired: false };
const WAITING = { freeMinutes: 3, perMinute: 2 };
const ride = { id: 5, status: 'ACCEPTED', rideType: 'mini', pricingVersion: 2, fare: 208 } as Ride;

afterEach(() => mock.timers.reset());

describe('the waiting clock', () => {
  test('counts started minutes beyond the free ones', () => {
    assert.deepEqual(waitingCharge(2 * 60_000, WAITING), { minutes: 0, fare: 0 });
    assert.deepEqual(waitingCharge(3 * 60_000, WAITING), { minutes: 0, fare: 0 });
    assert.deepEqual(waitingCharge(3 * 60_000 + 1000, WAITING), { minutes: 1, fare: 2 });
    assert.deepEqual(waitingCharge(7 * 60_000 + 5000, WAITING), { minutes: 5, fare: 10 });
  });

  test("runs from the driver's arrival, free at first, then says what waiting costs, by the ride's pricing version", async () => {
    mock.timers.enable({ apis: ['Date', 'setInterval'], now: Date.parse('2026-11-27T10:02:30.000Z') });
    const asked: number[] = [];
    const api = { pricing: { version: async (version: number) => (asked.push(version), { version, fares: { mini: { waiting: WAITING } } }) } };
    const root = mount();
    await act(() => draw(h(AppProvider, { api: api as unknown as Api, settings, children: h(WaitingClock, { ride, arrivedAt: '2026-11-27T10:00:00.000Z' }) }), root));
    await act(async () => undefined);
    assert.deepEqual(asked, [2]);
    const text = () => root.querySelector('[data-testid="waiting-clock"]')?.textContent;
    assert.equal(text(), 'Waiting at the pickup 2:30 · free for the first 3 min');
    await act(() => mock.timers.tick(2 * 60_000));
    assert.equal(text(), 'Waiting at the pickup 4:30 · ₹4 so far (₹2 a started minute after 3 free)');
  });
});

describe('added charges', () => {
  const toll: TripCharge = { kind: 'toll', amountInInr: 65, note: 'NICE road', addedAt: '2026-11-27T10:20:00.000Z' };

  test('none: nothing shown; each one added shows at once, with the total', async () => {
    const root = mount();
    await act(() => draw(h(AddedCharges, { charges: [] }), root));
    assert.equal(root.textContent, '');
    await act(() => draw(h(AddedCharges, { charges: [toll] }), root));
    await act(() => draw(h(AddedCharges, { charges: [toll, { kind: 'parking', amountInInr: 30, note: '', addedAt: '2026-11-27T10:40:00.000Z' }] }), root));
    const facts = [...root.querySelectorAll('dt')].map((term) => `${term.textContent}: ${term.nextElementSibling?.textContent}`);
    assert.deepEqual(facts, ['Toll: NICE road: ₹65', 'Parking: ₹30', 'Tolls and parking: ₹95']);
  });
});
