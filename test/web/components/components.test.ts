import assert from 'node:assert/strict';
import { afterEach, describe, mock, test } from 'node:test';
import type { Api } from '../../../web/src/api/endpoints.ts';
import type { Ride } from '../../../web/src/api/types.ts';
import { mount } from './dom.ts';

// The web apps' components, rendered into a DOM in this process: what a user would see and do,
// without a browser (the browser tests in test/browser cover whole journeys).

const { h } = await import('preact');
const { act } = await import('preact/test-utils');
const { AppProvider, useApi } = await import('../../../web/src/ui/app-context.tsx');
const { ErrorBoundary } = await import('../../../web/src/ui/error-boundary.tsx');
const { DriverCard } = await import('../../../web/src/rider/driver-card.tsx');
const { HistoryScreen } = await import('../../../web/src/rider/history-screen.tsx');

const settings = { mapTileUrl: '', mapAttribution: '', checkoutUrl: '', driverApprovalRequired: false };

// The fields these screens show; the rest of a ride does not matter to them.
const ride = (fields: Partial<Ride>): Ride => ({
  id: 7,
  status: 'ACCEPTED',
  rideType: 'mini',
  fare: 180,
  pickupLocation: 'MG Road Metro',
  dropLocation: 'Koramangala',
  createdAt: '2026-11-27T09:30:00.000Z',
  riderRating: null,
  cancellationFee: null,
  ...fields,
} as Ride);

async function render(node: unknown): Promise<HTMLElement> {
  const root = mount();
  const { render: draw } = await import('preact');
  await act(() => draw(node as never, root));
  return root;
}

/** The terms and values of a Facts list, as "term: value" lines. */
const facts = (root: HTMLElement) => [...root.querySelectorAll('dt')].map((term) => `${term.textContent}: ${term.nextElementSibling?.textContent}`);

afterEach(() => mock.restoreAll());

describe('the rider sees who is coming', () => {
  test("the driver card shows the driver's name, vehicle and plate, and asks to check the plate", async () => {
    const root = await render(h(DriverCard, { ride: ride({ driverName: 'Asha', vehicleType: 'mini', vehicleModel: 'Swift Dzire', vehicleNumber: 'KA01AB1234' }) }));
    assert.deepEqual(facts(root), ['Driver: Asha', 'Vehicle: Mini · Swift Dzire', 'Plate: KA01AB1234']);
    assert.equal(root.querySelector('[data-testid="plate"]')?.textContent, 'KA01AB1234');
    assert.match(root.textContent ?? '', /Check the plate before you get in/);
  });

  test('a driver without a vehicle profile is shown by name alone', async () => {
    const root = await render(h(DriverCard, { ride: ride({ status: 'PICKED', driverName: 'Ravi', vehicleType: null, vehicleNumber: null }) }));
    assert.deepEqual(facts(root), ['Driver: Ravi']);
    assert.doesNotMatch(root.textContent ?? '', /Check the plate/);
  });
});

describe('error boundary', () => {
  function Broken(): never {
    throw new Error('screen bug');
  }

  test('a screen that throws while rendering shows the fallback instead of a blank page, and the error goes to the console', async () => {
    const logged = mock.method(console, 'error', () => undefined);
    const root = await render(h(ErrorBoundary, { app: 'the rider app', children: h(Broken, null) }));
    assert.match(root.querySelector('[role="alert"]')?.textContent ?? '', /Something went wrong in the rider app/);
    assert.equal(root.querySelector('button')?.textContent, 'Reload the app');
    assert.ok(logged.mock.calls.some((call) => call.arguments[0] instanceof Error && call.arguments[0].message === 'screen bug'));
  });

  test('a working app renders as it is', async () => {
    const root = await render(h(ErrorBoundary, { app: 'the rider app', children: h('p', null, 'Book a ride') }));
    assert.equal(root.textContent, 'Book a ride');
    assert.equal(root.querySelector('[role="alert"]'), null);
  });
});

describe('the app context', () => {
  test('a screen reads the API client from the context and shows what it answers', async () => {
    const asked: Array<string | undefined> = [];
    const api = {
      rides: {
        history: async (cursor?: string) => {
          asked.push(cursor);
          return { items: [ride({ id: 41, status: 'COMPLETED', riderRating: 5 })], nextCursor: null };
        },
      },
    };
    const root = await render(h(AppProvider, { api: api as unknown as Api, settings, children: h(HistoryScreen, null) }));
    assert.deepEqual(asked, [undefined]);
    const item = root.querySelector('[data-ride="41"]');
    assert.ok(item, 'the ride the API answered is listed');
    assert.match(item.textContent ?? '', /MG Road Metro → Koramangala/);
    assert.match(item.textContent ?? '', /rated 5\/5/);
  });

  test('a screen rendered without the provider fails with a message that names the mistake', async () => {
    function Reader() {
      useApi();
      return null;
    }
    await assert.rejects(
      render(h(Reader, null)),
      /needs <AppProvider> above it/,
    );
  });
});
