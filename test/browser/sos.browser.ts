import assert from 'node:assert/strict';
import { test } from 'node:test';
import { eventually } from '../helpers/dispatch.ts';
import { http } from '../helpers/server-process.ts';
import { accountOverHttp, logIn, phone, Screens, serverAndBrowser } from './browser.ts';

// The SOS button of the rider app alarms the operator console (banner until acknowledged), and the
// incident desk acknowledges it.

const OPERATOR = 'ops-sos@example.com';
const web = serverAndBrowser({ ADMIN_EMAILS: OPERATOR });
const NEAR_MG_ROAD = { lat: 12.9806, lon: 77.6066 };
const TRIP = { pickupLat: 12.9756, pickupLon: 77.6067, dropLat: 12.9352, dropLon: 77.6245, pickupLocation: 'MG Road Metro', dropLocation: 'Koramangala Forum Mall' };

test("a rider's SOS sounds the console's alarm until an operator acknowledges it on the incident desk", async () => {
  const operatorAccount = await accountOverHttp(web.server, 'ADMIN', 'Olga Operator', OPERATOR);
  const riderAccount = await accountOverHttp(web.server, 'USER', 'Meera Sos');
  const driver = await accountOverHttp(web.server, 'DRIVER', 'Kiran Rao');
  assert.equal((await http(`${web.server.url}/drivers/me/profile`, 'PUT', { vehicleType: 'mini', vehicleNumber: 'KA05SO1234' }, driver.token)).status, 200);
  assert.equal((await http(`${web.server.url}/drivers/me/location`, 'PUT', NEAR_MG_ROAD, driver.token)).status, 200);
  assert.equal((await http(`${web.server.url}/rides/book`, 'POST', TRIP, riderAccount.token)).status, 200);
  const offer = await eventually(async () => (await http(`${web.server.url}/drivers/me/offers`, 'GET', undefined, driver.token)).body[0], 'an offer to the driver');
  assert.equal((await http(`${web.server.url}/drivers/me/offers/${offer.offerId}/accept`, 'POST', undefined, driver.token)).status, 200);

  const ops = new Screens(await (await phone(web.browser, { viewport: { width: 1280, height: 900 } })).newPage(), 'ops-sos');
  await logIn(ops, `${web.server.url}/app/ops`, operatorAccount);
  await ops.page.getByRole('link', { name: 'Incidents' }).waitFor();

  const rider = new Screens(await (await phone(web.browser)).newPage(), 'rider-sos');
  await logIn(rider, `${web.server.url}/app/`, riderAccount);
  await rider.page.getByRole('heading', { name: 'Driver on the way' }).waitFor();
  await rider.page.getByRole('button', { name: 'SOS' }).click();
  await rider.page.getByText('Our operators have been alerted').waitFor();
  await rider.check('sos-sent');

  const alarm = ops.page.getByRole('alert').filter({ hasText: 'SOS: an incident is waiting for an operator.' });
  await alarm.waitFor();
  await ops.check('alarm');
  await ops.page.getByRole('link', { name: 'Incidents' }).click();
  await ops.page.getByRole('heading', { name: /Incident \d+: SOS by the rider/ }).waitFor();
  await ops.page.getByRole('button', { name: 'Acknowledge' }).click();
  await alarm.waitFor({ state: 'hidden' });
  await ops.page.getByText('Acknowledged', { exact: true }).waitFor();
  await ops.check('acknowledged');
});
