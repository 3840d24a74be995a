import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Earnings } from '../../../src/contract/types.ts';
import { localDate, startOfLocalDay } from '../../../src/platform/clock.ts';
import { earningsPeriod } from '../../../src/modules/rides/earnings.ts';
import { call, createTestApp, type TestApp } from '../../helpers/app.ts';
import { signUp, type TestUser } from '../../helpers/factories.ts';
import { assertError, assertOk, completedRide, tripNorth } from '../../helpers/rides.ts';

// GET /drivers/me/earnings (decisions.md "Fare policy", driver earnings): a driver's rides, fares,
// share, tolls and penalties in a period, per SERVICE_TIMEZONE day and in total.

const HOUR = 3_600_000;
const paise = (rupees: number) => Math.round(rupees * 100) / 100;

describe('driver earnings', () => {
  let t: TestApp;
  let rider: TestUser;
  let driver: TestUser;
  let other: TestUser;
  let yesterday: string;
  let today: string;
  const fares: Record<string, number[]> = {};

  const login = async (user: TestUser) => {
    const reply = await call(t.app, 'POST', '/auth/login', { body: { email: user.email, password: user.password } });
    assertOk(reply, 'login');
    user.token = reply.body.accessToken;
  };
  const earningsOf = (user: TestUser, query = '') => call<Earnings>(t.app, 'GET', `/drivers/me/earnings${query}`, { token: user.token });

  before(async () => {
    t = await createTestApp();
    // Noon tomorrow in the service's zone: each day's rides fall well inside it.
    const now = t.clock.now();
    t.clock.advance(startOfLocalDay(now, t.config.serviceTimezone) + 36 * HOUR - now);
    [rider, driver, other] = [await signUp(t), await signUp(t, { role: 'DRIVER' }), await signUp(t, { role: 'DRIVER' })];
    yesterday = localDate(t.clock.now(), t.config.serviceTimezone);
    fares[yesterday] = [(await completedRide(t, rider, driver, tripNorth(6))).booked.fare];
    t.clock.advance(24 * HOUR);
    for (const user of [rider, driver, other]) await login(user);
    today = localDate(t.clock.now(), t.config.serviceTimezone);
    fares[today] = [(await completedRide(t, rider, driver, tripNorth(3))).booked.fare, (await completedRide(t, rider, driver, tripNorth(11))).booked.fare];
    // Another driver's ride is theirs alone.
    await completedRide(t, rider, other, tripNorth(4));
  });
  after(() => t.close());

  test("a driver's period shows each ride with its share, each day and the totals", async () => {
    const reply = await earningsOf(driver, `?from=${yesterday}&to=${today}`);
    assertOk(reply, 'earnings');
    const earnings = reply.body;
    assert.deepEqual([earnings.from, earnings.to, earnings.today, earnings.timeZone], [yesterday, today, today, t.config.serviceTimezone]);
    assert.equal(earnings.rides.length, 3);
    for (const ride of earnings.rides) {
      // Versions without a driver share of their own: 80 %, the rest the platform's fee.
      assert.equal(ride.driverShare, 0.8);
      assert.equal(ride.driverAmountInInr, paise(ride.fareInInr * 0.8));
      assert.equal(paise(ride.driverAmountInInr + ride.platformFeeInInr), ride.fareInInr);
      assert.equal(ride.tollsAndParkingInInr, 0);
    }
    assert.deepEqual(earnings.rides.map((ride) => ride.date), [today, today, yesterday], 'newest first');
    const sum = (values: number[]) => paise(values.reduce((a, b) => a + b, 0));
    assert.deepEqual(
      earnings.days.map((day) => ({ date: day.date, rides: day.rides, fares: day.faresInInr, driver: day.driverAmountInInr, net: day.netInInr })),
      [yesterday, today].map((date) => ({ date, rides: fares[date].length, fares: sum(fares[date]), driver: sum(fares[date].map((fare) => paise(fare * 0.8))), net: sum(fares[date].map((fare) => paise(fare * 0.8))) })),
    );
    const all = [...fares[yesterday], ...fares[today]];
    assert.deepEqual(earnings.totals, {
      rides: 3,
      faresInInr: sum(all),
      tollsAndParkingInInr: 0,
      driverAmountInInr: sum(all.map((fare) => paise(fare * 0.8))),
      platformFeeInInr: sum(all.map((fare) => paise(fare - paise(fare * 0.8)))),
      penaltiesInInr: 0,
      netInInr: sum(all.map((fare) => paise(fare * 0.8))),
    });
    assert.deepEqual(earnings.penalties, []);
  });

  test('the amounts are those of each ride\'s receipt', async () => {
    const { rides } = (await earningsOf(driver, `?from=${yesterday}`)).body;
    for (const ride of rides) {
      const { receipt } = (await call(t.app, 'GET', `/rides/${ride.rideId}/receipt`, { token: driver.token })).body;
      assert.deepEqual([ride.fareInInr, ride.driverAmountInInr, ride.platformFeeInInr], [receipt.fare, receipt.driverAmountInInr, receipt.platformFeeInInr]);
    }
  });

  test("without dates: this week so far, Monday to today, every day listed; today alone with from=to", async () => {
    const week = (await earningsOf(driver)).body;
    assert.equal(week.to, today);
    assert.equal(new Date(`${week.from}T00:00:00Z`).getUTCDay(), 1, `${week.from} is a Monday`);
    assert.equal(week.days.at(-1)!.date, today);
    assert.equal(week.days.length, (new Date(`${today}T00:00:00Z`).getUTCDay() + 6) % 7 + 1);
    const todays = (await earningsOf(driver, `?from=${today}&to=${today}`)).body;
    assert.equal(todays.totals.rides, 2);
    assert.deepEqual(todays.days.map((day) => day.date), [today]);
  });

  test("a driver sees only their own rides; a day without rides is zeros", async () => {
    const theirs = (await earningsOf(other, `?from=${yesterday}&to=${today}`)).body;
    assert.equal(theirs.totals.rides, 1);
    assert.deepEqual(theirs.days.map((day) => day.rides), [0, 1]);
  });

  test('only drivers ask: a rider 403, no token 401; a wrong period is 400', async () => {
    assertError(await earningsOf(rider), 403);
    assertError(await call(t.app, 'GET', '/drivers/me/earnings'), 401);
    assertError(await earningsOf(driver, `?from=${today}&to=${yesterday}`), 400, 'VALIDATION_FAILED');
    assertError(await earningsOf(driver, '?from=2026-01-01&to=2026-12-31'), 400, 'VALIDATION_FAILED');
    assertError(await earningsOf(driver, '?from=2026-02-31'), 400, 'VALIDATION_FAILED');
    assertError(await earningsOf(driver, '?from=yesterday'), 400, 'VALIDATION_FAILED');
  });
});

describe('an earnings period', () => {
  const noonInKolkata = Date.parse('2026-11-26T06:30:00Z'); // a Thursday

  test("defaults to the week of today: from its Monday's local midnight to the next midnight", () => {
    const period = earningsPeriod({}, noonInKolkata, 'Asia/Kolkata');
    assert.deepEqual([period.from, period.to, period.today], ['2026-11-23', '2026-11-26', '2026-11-26']);
    assert.equal(new Date(period.start).toISOString(), '2026-11-22T18:30:00.000Z');
    assert.equal(new Date(period.end).toISOString(), '2026-11-26T18:30:00.000Z');
    assert.deepEqual(period.days, ['2026-11-23', '2026-11-24', '2026-11-25', '2026-11-26']);
  });

  test('a day is the zone\'s: a day that changes the clocks is 23 hours long', () => {
    const period = earningsPeriod({ from: '2026-03-29', to: '2026-03-29' }, noonInKolkata, 'Europe/London');
    assert.equal(period.end - period.start, 23 * HOUR);
  });
});
