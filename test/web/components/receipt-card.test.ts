import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Api } from '../../../web/src/api/endpoints.ts';
import type { Ride, SignedReceipt } from '../../../web/src/api/types.ts';
import { mount } from './dom.ts';

// A finished ride's receipt in the rider and driver apps: the parts of the fare, who gets what, and
// the signed document to download and check.

const { h, render: draw } = await import('preact');
const { act } = await import('preact/test-utils');
const { AppProvider } = await import('../../../web/src/ui/app-context.tsx');
const { ReceiptCard, hasReceipt } = await import('../../../web/src/ui/receipt-card.tsx');

const settings = { mapTileUrl: '', mapAttribution: '', checkoutUrl: '', driverApprovalRequired: false };
const ride = { id: 12, status: 'COMPLETED', fare: 250, cancellationFee: null } as Ride;

const SIGNED: SignedReceipt = {
  receipt: {
    receiptVersion: 1,
    kind: 'trip',
    rideId: 12,
    rideType: 'mini',
    currency: 'INR',
    endedAt: '2026-11-26T10:15:00.000Z',
    pricingVersion: 2,
    inputs: { distanceKm: 9.5, minutes: 24, waitingMinutes: 4, zone: '8860145b49fffff', surgeMultiplier: 1.2, night: false, stops: 0, tollsInInr: 50, parkingInInr: 0, cancelledWhile: null },
    breakdown: [
      { part: 'base', amountInInr: 50 },
      { part: 'distance', amountInInr: 78 },
      { part: 'time', amountInInr: 48 },
      { part: 'surge', amountInInr: 20 },
      { part: 'waiting', amountInInr: 4 },
      { part: 'tolls', amountInInr: 50 },
    ],
    fare: 250,
    driverShare: 0.8,
    driverAmountInInr: 210,
    platformFeeInInr: 40,
  },
  signature: 'eyJhbGciOiJFZERTQSJ9..c2lnbmF0dXJl',
};

async function card(viewer: 'rider' | 'driver', asked: number[] = []): Promise<HTMLElement> {
  const api = { rides: { receipt: async (rideId: number) => (asked.push(rideId), SIGNED) } };
  const root = mount();
  await act(() => draw(h(AppProvider, { api: api as unknown as Api, settings, children: h(ReceiptCard, { ride, viewer }) }), root));
  await act(async () => undefined);
  return root;
}

const facts = (root: HTMLElement) => [...root.querySelectorAll('dt')].map((term) => `${term.textContent}: ${term.nextElementSibling?.textContent}`);

describe('the receipt card', () => {
  test("shows each part of the fare and the total, asking the service for the ride's receipt", async () => {
    const asked: number[] = [];
    const root = await card('rider', asked);
    assert.deepEqual(asked, [12]);
    assert.deepEqual(facts(root), ['Base fare: ₹50', 'Distance: ₹78', 'Time: ₹48', 'Surge: ₹20', 'Waiting: ₹4', 'Tolls: ₹50', 'Total: ₹250']);
    assert.match(root.textContent ?? '', /Your driver gets ₹210; the platform keeps ₹40\. Priced by pricing version 2\./);
  });

  test("tells the driver their part, their share and that tolls are all theirs", async () => {
    const root = await card('driver');
    assert.match(root.textContent ?? '', /Yours: ₹210 \(80 % of the fare, and all tolls and parking\); platform fee ₹40\./);
  });

  test('offers the signed receipt as a file to check with npm run verify-receipt', async () => {
    const root = await card('rider');
    const link = root.querySelector('a[download]')!;
    assert.equal(link.getAttribute('download'), 'receipt-ride-12.json');
    const href = link.getAttribute('href')!;
    assert.ok(href.startsWith('data:application/json,'));
    assert.deepEqual(JSON.parse(decodeURIComponent(href.slice('data:application/json,'.length))), SIGNED);
    assert.match(root.textContent ?? '', /npm run verify-receipt -- receipt-ride-12\.json/);
  });

  test('a completed ride has one, a rider\'s cancellation with a fee too, an open or free-cancelled ride none', () => {
    assert.equal(hasReceipt({ status: 'COMPLETED', cancellationFee: null }), true);
    assert.equal(hasReceipt({ status: 'CANCELLED', cancellationFee: 40 }), true);
    assert.equal(hasReceipt({ status: 'CANCELLED', cancellationFee: null }), false);
    assert.equal(hasReceipt({ status: 'PICKED', cancellationFee: null }), false);
  });
});
