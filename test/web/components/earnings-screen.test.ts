import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Api } from '../../../web/src/api/endpoints.ts';
import type { Earnings } from '../../../web/src/api/types.ts';
import { mount } from './dom.ts';

// The driver app's earnings screen: today's and this week's, per ride, as GET /drivers/me/earnings answers.

const { h, render: draw } = await import('preact');
const { act } = await import('preact/test-utils');
const { AppProvider } = await import('../../../web/src/ui/app-context.tsx');
const { EarningsScreen } = await import('../../../web/src/driver/earnings-screen.tsx');

const settings = { mapTileUrl: '', mapAttribution: '', checkoutUrl: '', driverApprovalRequired: false };
const zero = { rides: 0, faresInInr: 0, tollsAndParkingInInr: 0, driverAmountInInr: 0, platformFeeInInr: 0, penaltiesInInr: 0, netInInr: 0 };
const ride = (rideId: number, date: string, completedAt: string, fare: number, tolls = 0) => ({
  rideId,
  date,
  completedAt,
  rideType: 'mini' as const,
  pricingVersion: 1,
  fareInInr: fare,
  driverShare: 0.8,
  tollsAndParkingInInr: tolls,
  driverAmountInInr: Math.round(((fare - tolls) * 0.8 + tolls) * 100) / 100,
  platformFeeInInr: Math.round((fare - tolls) * 0.2 * 100) / 100,
});

const WEEK: Earnings = {
  from: '2026-11-23',
  to: '2026-11-26',
  timeZone: 'Asia/Kolkata',
  today: '2026-11-26',
  totals: { rides: 3, faresInInr: 530, tollsAndParkingInInr: 50, driverAmountInInr: 434, platformFeeInInr: 96, penaltiesInInr: 20, netInInr: 414 },
  days: [
    { date: '2026-11-23', ...zero },
    { date: '2026-11-24', rides: 1, faresInInr: 150, tollsAndParkingInInr: 0, driverAmountInInr: 120, platformFeeInInr: 30, penaltiesInInr: 20, netInInr: 100 },
    { date: '2026-11-25', ...zero },
    { date: '2026-11-26', rides: 2, faresInInr: 380, tollsAndParkingInInr: 50, driverAmountInInr: 314, platformFeeInInr: 66, penaltiesInInr: 0, netInInr: 314 },
  ],
  rides: [ride(9, '2026-11-26', '2026-11-26T10:15:00.000Z', 250, 50), ride(8, '2026-11-26', '2026-11-26T06:00:00.000Z', 130), ride(3, '2026-11-24', '2026-11-24T12:00:00.000Z', 150)],
  penalties: [{ rideId: 5, date: '2026-11-24', at: '2026-11-24T08:00:00.000Z', amountInInr: 20 }],
};

async function screen(earnings: Earnings, asked: unknown[] = []): Promise<HTMLElement> {
  const api = { drivers: { earnings: async (query?: unknown) => (asked.push(query), earnings) } };
  const root = mount();
  await act(() => draw(h(AppProvider, { api: api as unknown as Api, settings, children: h(EarningsScreen, null) }), root));
  await act(async () => undefined);
  return root;
}

const text = (root: HTMLElement, selector: string) => root.querySelector(selector)?.textContent?.replace(/\s+/g, ' ').trim();

describe("the driver's earnings screen", () => {
  test("shows today's and this week's net, asking the service for this week", async () => {
    const asked: unknown[] = [];
    const root = await screen(WEEK, asked);
    assert.deepEqual(asked, [undefined]);
    assert.equal(text(root, '[data-testid="earnings-total"]'), '₹314');
    assert.match(text(root, '[aria-label="Today"]')!, /2 rides completed today\./);
    assert.equal(text(root, '[data-testid="earnings-week"]'), '₹414');
    const week = text(root, '[aria-label="This week"]')!;
    assert.match(week, /3 rides since Mon, 23 Nov/);
    assert.match(week, /Platform fee− ₹96/);
    assert.match(week, /Tolls and parking \(all yours\)₹50/);
    assert.match(week, /Cancellation penalties− ₹20/);
  });

  test('lists each ride under its day, newest day first, with the fare and the driver\'s part', async () => {
    const root = await screen(WEEK);
    assert.deepEqual([...root.querySelectorAll('[data-day]')].map((day) => day.getAttribute('data-day')), ['2026-11-26', '2026-11-24']);
    assert.match(text(root, '[data-day="2026-11-26"] h3')!, /^Today · ₹314$/);
    assert.match(text(root, '[data-ride="9"]')!, /Mini · fare ₹250 → ₹210 yours \(with ₹50 tolls and parking\)/);
    assert.match(text(root, '[data-ride="3"]')!, /fare ₹150 → ₹120 yours$/);
  });

  test('a driver with no rides yet sees zeros and no breakdown for today', async () => {
    const empty: Earnings = { ...WEEK, totals: zero, days: WEEK.days.map((day) => ({ ...zero, date: day.date })), rides: [], penalties: [] };
    const root = await screen(empty);
    assert.equal(text(root, '[data-testid="earnings-total"]'), '₹0');
    assert.match(text(root, '[aria-label="Today"]')!, /0 rides completed today\./);
    assert.equal(root.querySelector('[aria-label="Today"] dl'), null);
    assert.equal(root.querySelectorAll('[data-day]').length, 0);
  });
});
