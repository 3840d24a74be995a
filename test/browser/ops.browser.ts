import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { zoneOf } from '../../src/platform/geo/zones.ts';
import { FakeRazorpay, KEY_ID, KEY_SECRET } from '../helpers/fake-razorpay.ts';
import { http } from '../helpers/server-process.ts';
import { PHONE, accountOverHttp, lastScreens, launchChromium, logIn, phone, Screens, startWebServer, type Account, type WebServer } from './browser.ts';

// The operator console against a real service where drivers need an operator's approval: the live
// map, the approval queue, accounts, prices, the audit trail, a ride's timeline with its refund and
// cancellation, complaints and deletion requests, each screen checked.

const OPERATOR = 'ops-lead@example.com';
/** Where the console's map opens (the city centre): the driver waits here, the rider is picked up nearby. */
const DRIVER_AT = { lat: 12.9716, lon: 77.5946 };
const PICKUP = { lat: 12.9756, lon: 77.6066 };
let server: WebServer;
let provider: FakeRazorpay;
let browser: Browser;

before(async () => {
  provider = await new FakeRazorpay().start();
  server = await startWebServer({ ADMIN_EMAILS: OPERATOR, DRIVER_APPROVAL_REQUIRED: 'true', RAZORPAY_KEY_ID: KEY_ID, RAZORPAY_KEY_SECRET: KEY_SECRET, RAZORPAY_API_URL: provider.url });
  browser = await launchChromium();
});

after(async () => {
  await lastScreens();
  await browser?.close();
  await server?.stop();
  await provider?.close();
});

const ok = async <T>(reply: Promise<{ status: number; body: T }>, what: string): Promise<T> => {
  const { status, body } = await reply;
  assert.equal(status, 200, `${what}: ${JSON.stringify(body)}`);
  return body;
};

/** A rider's ride, booked and paid online at the provider's checkout: an open request. */
async function paidRequest(rider: Account) {
  const ride = await ok(
    http(`${server.url}/rides/book`, 'POST', { pickupLocation: 'MG Road Metro', dropLocation: 'Koramangala Forum Mall', pickupLat: PICKUP.lat, pickupLon: PICKUP.lon, dropLat: 12.9346, dropLon: 77.6113, paymentMode: 'UPI' }, rider.token),
    'book',
  );
  const order = await ok(http(`${server.url}/payments/order`, 'POST', { amountInInr: ride.fare, rideId: ride.id, paymentMode: 'UPI' }, rider.token), 'order');
  await ok(http(`${server.url}/payments/verify`, 'POST', await provider.pay(order.orderId)), 'verify');
  return ride as { id: number; fare: number };
}

/** Opens a screen from the console's navigation. */
async function open(page: Page, link: string, heading: string): Promise<void> {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: link, exact: true }).click();
  await page.getByRole('heading', { name: heading, level: 2 }).waitFor();
}

test('an operator follows the service live, approves a driver, blocks a user, changes a price and finds each in the audit trail', async () => {
  const operator = await accountOverHttp(server, 'ADMIN', 'Priya Operator', OPERATOR);
  const driver = await accountOverHttp(server, 'DRIVER', 'Ravi Driver');
  await ok(http(`${server.url}/drivers/me/profile`, 'PUT', { vehicleType: 'mini', vehicleNumber: 'KA01AB1234' }, driver.token), 'vehicle');
  await ok(http(`${server.url}/drivers/me/location`, 'PUT', DRIVER_AT, driver.token), 'position');
  const rider = await accountOverHttp(server, 'USER', 'Asha Rider');
  const ride = await paidRequest(rider);
  await ok(http(`${server.url}/rides/${ride.id}/complaints`, 'POST', { category: 'app', message: 'The app showed no driver for ten minutes.' }, rider.token), 'complaint');
  const troublemaker = await accountOverHttp(server, 'USER', 'Gopal Troublemaker');
  const leaving = await accountOverHttp(server, 'USER', 'Dev Leaving');
  await ok(http(`${server.url}/user-settings`, 'PUT', { deleteAccountRequested: true }, leaving.token), 'deletion request');

  const context = await phone(browser);
  const ops = new Screens(await context.newPage(), 'ops');
  const page = ops.page;
  await logIn(ops, `${server.url}/app/ops`, operator);

  // Live: the figures, the waiting driver (not cleared: approval is required), the open request and its zone.
  await page.getByRole('heading', { name: 'Live', level: 2 }).waitFor();
  const summary = page.getByTestId('map-summary');
  await summary.filter({ hasText: 'In view: 1 driver (0 available, 0 on a ride, 1 not cleared). Open requests on the map: 1.' }).waitFor();
  await page.locator('.figure').filter({ hasText: 'Open requests' }).filter({ hasText: /1$/ }).waitFor();
  await page.getByTitle(`Open request: ride ${ride.id}, MG Road Metro`).waitFor();
  // Zones by a place an operator knows, the H3 cell beside it; one rider waiting, no driver free.
  const zoneRow = page.getByRole('row').filter({ hasText: zoneOf(PICKUP) });
  await zoneRow.filter({ hasText: /^Near MG Road Metro/ }).waitFor();
  assert.deepEqual((await zoneRow.getByRole('cell').allTextContents()).slice(1, 3), ['1', '0']);
  await page.getByText('Drivers in view, as a list').click();
  await page.getByRole('row', { name: `Ravi Driver (${driver.id}) Not cleared for offers` }).waitFor();
  await ops.check('live');

  // The approval queue: the driver is approved, and the live map shows them available.
  await open(page, 'Drivers', 'Driver approval');
  const applicant = page.locator(`[data-driver="${driver.id}"]`);
  await applicant.getByText('Waiting for approval').waitFor();
  await applicant.getByRole('button', { name: 'Approve Ravi Driver' }).click();
  await applicant.getByText('Approved', { exact: true }).waitFor();
  await ops.check('drivers');
  const approved = await ok(http(`${server.url}/admin/drivers?approval=approved`, 'GET', undefined, operator.token), 'approved drivers');
  assert.deepEqual(approved.items.map((item: { driverId: number }) => item.driverId), [driver.id]);
  await open(page, 'Live', 'Live');
  await summary.filter({ hasText: 'In view: 1 driver (1 available, 0 on a ride, 0 not cleared)' }).waitFor();
  // Availability by vehicle type, every type named (the numbers are test/modules/admin/overview.test.ts's).
  assert.match((await page.getByTestId('available-by-vehicle').textContent())!, /^Available by vehicle: bike \d+ · auto \d+ · mini \d+ · sedan \d+ · suv \d+$/);

  // Accounts: find the troublemaker and block them, with a reason.
  await open(page, 'Accounts', 'Accounts');
  await page.getByLabel('Name or e-mail contains').fill('gopal');
  await page.getByRole('form', { name: 'Find accounts' }).getByRole('button', { name: 'Search' }).click();
  const found = page.getByRole('list', { name: 'Accounts found' }).getByRole('listitem');
  await found.filter({ hasText: 'Asha Rider' }).waitFor({ state: 'detached' });
  await found.filter({ hasText: 'Gopal Troublemaker' }).waitFor();
  assert.equal(await found.count(), 1);
  await found.getByRole('button', { name: 'Block Gopal Troublemaker' }).click();
  const blocking = page.getByRole('dialog', { name: 'Block this account?' });
  await blocking.getByLabel('Reason').fill('Abusive messages to drivers');
  await blocking.getByRole('button', { name: 'Block', exact: true }).click();
  await found.getByText('Blocked: Abusive messages to drivers').waitFor();
  await found.getByRole('button', { name: 'Unblock Gopal Troublemaker' }).waitFor();
  await ops.check('users');
  const refused = await http(`${server.url}/auth/login`, 'POST', { email: troublemaker.email, password: troublemaker.password });
  assert.equal(refused.status, 403);
  assert.equal(refused.body.code, 'ACCOUNT_BLOCKED');

  // Pricing: a new version with a higher mini base fare; a rule the API refuses is shown as it answered.
  await open(page, 'Pricing', 'Pricing');
  const base = page.getByLabel('Mini base fare');
  const newBase = Number(await base.inputValue()) + 5;
  await base.fill(String(newBase));
  await page.getByRole('button', { name: 'Save as a new version' }).click();
  await page.getByText('Version 2 saved: every instance quotes it within a second.').waitFor();
  await page.locator('[data-version="2"]').getByText('Version 2 (in force)').waitFor();
  const pricing = await ok(http(`${server.url}/admin/pricing`, 'GET', undefined, operator.token), 'pricing');
  assert.equal(pricing.current.version, 2);
  assert.equal(pricing.current.fares.mini.base, newBase);
  ops.expectAnswer(400, '/admin/pricing');
  await page.getByLabel('Mini minimum fare').fill('1');
  await page.getByRole('button', { name: 'Save as a new version' }).click();
  await page.getByRole('alert').filter({ hasText: 'fares.mini.minimum must be at least its base' }).waitFor();
  await ops.check('pricing');

  // Compliance: this week's rides checked against IN-MVAG-2025, violations by rule. The rides so far were
  // priced with version 1, whose base covers no kilometres: each breaks base-covers-dead-mileage.
  await open(page, 'Compliance', 'Compliance');
  await page.getByRole('button', { name: 'Check' }).click();
  const week = await ok(http(`${server.url}/admin/compliance?from=${new Date(Date.now() - 8 * 86_400_000).toISOString()}&to=${new Date(Date.now() + 86_400_000).toISOString()}`, 'GET', undefined, operator.token), 'compliance');
  assert.ok(week.ridesChecked > 0, 'rides were booked');
  const deadMileage = week.breaches.filter((breach: { rule: string }) => breach.rule === 'base-covers-dead-mileage');
  assert.equal(deadMileage.length, week.ridesChecked);
  const counted = (count: number, thing: string) => `${count} ${thing}${count === 1 ? '' : 's'}`;
  await page.getByText(`${counted(week.ridesChecked, 'ride')} checked against IN-MVAG-2025: ${counted(week.breaches.length, 'violation')} on ${counted(week.ridesChecked, 'ride')}.`).waitFor();
  const row = page.getByRole('table', { name: 'Violations by rule' }).getByRole('row').filter({ hasText: 'base-covers-dead-mileage' });
  assert.deepEqual(await row.getByRole('cell').allTextContents(), ['base-covers-dead-mileage', String(deadMileage.length), String(week.ridesChecked)]);
  await page.getByRole('list', { name: 'Violations' }).getByRole('link', { name: `Ride ${deadMileage[0].rideId}` }).first().waitFor();
  await ops.check('compliance');

  // The audit trail: each change, by this operator.
  await open(page, 'Audit trail', 'Audit trail');
  for (const change of [`driver.approve · driver ${driver.id}`, `user.block · user ${troublemaker.id}`, 'pricing.update · pricing 2']) {
    const row = page.getByRole('row').filter({ hasText: change });
    await row.waitFor();
    assert.match((await row.textContent())!, new RegExp(`operator ${operator.id}`), change);
  }
  await ops.check('audit');

  // Rides: the open request, its timeline, a partial refund, one refused, then the operator's cancellation.
  await open(page, 'Rides', 'Rides');
  await page.getByLabel('Status').selectOption('REQUESTED');
  await page.getByLabel('Rider id').fill(String(rider.id));
  await page.getByRole('button', { name: 'Search' }).click();
  await page.getByRole('link', { name: `Ride ${ride.id}` }).waitFor();
  await ops.check('rides');
  // On a laptop's 1366 px no filter spills over its neighbour (a date-and-time field is wider than most).
  await page.setViewportSize({ width: 1366, height: 800 });
  const boxes = await page.getByRole('form', { name: 'Find rides' }).locator('input, select').evaluateAll((fields) =>
    fields.map((field) => {
      const { left, right, top, bottom } = (field as any).getBoundingClientRect();
      return { name: (field as any).name as string, left, right, top, bottom };
    }),
  );
  for (const a of boxes) {
    for (const b of boxes) {
      const overlap = a !== b && a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
      assert.ok(!overlap, `${a.name} overlaps ${b.name} at 1366 px: ${JSON.stringify([a, b])}`);
    }
  }
  await ops.check('rides-1366');
  await page.setViewportSize(PHONE);
  await page.getByRole('link', { name: `Ride ${ride.id}` }).click();
  await page.getByRole('heading', { name: `Ride ${ride.id}` }).waitFor();
  const timeline = page.locator('ol.timeline');
  await timeline.getByText(`Booked by rider ${rider.id}`).waitFor();
  await timeline.getByText(/Online payment completed/).waitFor();
  await timeline.getByText(/Complaint \d+ by the rider/).waitFor();
  await page.getByLabel('Amount in rupees').fill('20');
  await page.getByLabel('Reason for the refund').fill('Goodwill for the long wait');
  await page.getByRole('button', { name: 'Refund', exact: true }).click();
  await page.getByText('Refund of ₹20 asked for; ₹20 refunded for this ride so far.').waitFor();
  await timeline.getByText(/Refund \w+: ₹20 \(operator, by operator/).waitFor();
  ops.expectAnswer(409, `/admin/rides/${ride.id}/refund`);
  await page.getByLabel('Amount in rupees').fill(String(ride.fare));
  await page.getByLabel('Reason for the refund').fill('Everything');
  await page.getByRole('button', { name: 'Refund', exact: true }).click();
  await page.getByRole('alert').filter({ hasText: `At most ₹${ride.fare - 20} of ride ${ride.id} can be refunded` }).waitFor();
  await page.getByRole('button', { name: 'Cancel ride' }).click();
  const cancelling = page.getByRole('dialog', { name: `Cancel ride ${ride.id}?` });
  await cancelling.getByLabel('Reason').fill('No driver nearby; refunded');
  await cancelling.getByRole('button', { name: 'Cancel the ride' }).click();
  await page.getByText(`Ride ${ride.id} cancelled.`).waitFor();
  await timeline.getByText(`Cancelled by the operator (operator ${operator.id}) (“No driver nearby; refunded”), no fee`).waitFor();
  await ops.check('ride');

  // Complaints: the rider's complaint is resolved.
  await open(page, 'Complaints', 'Complaints');
  const complaint = page.getByRole('listitem').filter({ hasText: 'The app showed no driver for ten minutes.' });
  await complaint.getByRole('button', { name: /^Resolve complaint/ }).click();
  const resolving = page.getByRole('dialog', { name: /^Resolve complaint/ });
  await resolving.getByLabel('Resolution').fill('Sorry for the wait: the ride was cancelled and refunded.');
  await resolving.getByRole('button', { name: 'Resolve', exact: true }).click();
  await complaint.getByText(`Resolved by operator ${operator.id}`).waitFor();
  await ops.check('complaints');

  // Deletion requests: the account that asked is erased after a confirmation.
  await open(page, 'Deletion requests', 'Deletion requests');
  await page.getByRole('button', { name: 'Erase Dev Leaving' }).click();
  await page.getByRole('dialog', { name: 'Erase this account?' }).getByRole('button', { name: 'Erase for good' }).click();
  await page.getByText('No one is waiting to be deleted.').waitFor();
  await ops.check('deletions');
  const erased = await ok(http(`${server.url}/admin/users?status=deleted`, 'GET', undefined, operator.token), 'erased accounts');
  assert.deepEqual(erased.items.map((item: { id: number }) => item.id), [leaving.id]);
  await context.close();
});

test('an operator creates a driver account and finds it in the audit trail', async () => {
  const operator = await accountOverHttp(server, 'ADMIN', 'Priya Operator', OPERATOR);
  const context = await phone(browser);
  const ops = new Screens(await context.newPage(), 'ops-accounts');
  const page = ops.page;
  await logIn(ops, `${server.url}/app/ops`, operator);
  await page.getByRole('heading', { name: 'Live', level: 2 }).waitFor();

  await open(page, 'Accounts', 'Accounts');
  const form = page.getByRole('form', { name: 'Create an account' });
  await form.getByLabel('Name').fill('Nikhil Driver');
  await form.getByLabel('E-mail').fill('nikhil.driver@example.com');
  await form.getByLabel('First password').fill('a first password');
  await form.getByLabel('Role').selectOption('DRIVER');
  await form.getByRole('button', { name: 'Create account' }).click();
  const created = page.getByText(/^Created account \d+: Nikhil Driver \(nikhil\.driver@example\.com\), driver\.$/);
  await created.waitFor();
  const id = /account (\d+)/.exec((await created.textContent())!)![1];
  await page.locator(`[data-account="${id}"]`).waitFor();
  await ops.check('account-created');

  await open(page, 'Audit trail', 'Audit trail');
  const row = page.getByRole('row').filter({ hasText: `user.create · user ${id}` });
  await row.waitFor();
  assert.match((await row.textContent())!, new RegExp(`operator ${operator.id}`));
  await ops.check('audit');
  await context.close();
});
