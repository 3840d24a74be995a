import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Browser } from 'playwright-core';
import type { PhoneStandIn } from '../../scripts/phone-stand-in.ts';
import { eventually } from '../helpers/dispatch.ts';
import { startPhoneProvider } from '../helpers/phone-provider.ts';
import { http } from '../helpers/server-process.ts';
import { accountOverHttp, lastScreens, launchChromium, logIn, phone, Screens, startWebServer, type Account, type WebServer } from './browser.ts';

// The rider app's phone verification by an SMS code, and the driver app on a ride under way: "Call
// rider" bridges the two phones through the telephony stand-in without showing a number, and the
// SOS button alarms the operator console.

const OPERATOR = 'ops-driver-sos@example.com';
const VIRTUAL_NUMBER = '+918047000000';
const web = {} as { server: WebServer; browser: Browser; provider: PhoneStandIn };
before(async () => {
  web.provider = await startPhoneProvider();
  web.server = await startWebServer({ ADMIN_EMAILS: OPERATOR, SMS_URL: web.provider.smsUrl, TELEPHONY_URL: web.provider.telephonyUrl, TELEPHONY_CALLER_ID: VIRTUAL_NUMBER });
  web.browser = await launchChromium();
});
after(async () => {
  await lastScreens();
  await web.browser?.close();
  await web.server?.stop();
  await web.provider?.close();
});
const NEAR_MG_ROAD = { lat: 12.9806, lon: 77.6066 };
const TRIP = { pickupLat: 12.9756, pickupLon: 77.6067, dropLat: 12.9352, dropLon: 77.6245, pickupLocation: 'MG Road Metro', dropLocation: 'Koramangala Forum Mall' };

async function verify(account: Account, number: string): Promise<void> {
  assert.equal((await http(`${web.server.url}/auth/phone`, 'POST', { phone: number }, account.token)).status, 200);
  const code = web.provider.lastCodeTo(number);
  assert.equal((await http(`${web.server.url}/auth/phone/verify`, 'POST', { code }, account.token)).status, 200);
}

test('a rider verifies a phone number in Settings with the code the SMS stand-in received', async () => {
  const riderAccount = await accountOverHttp(web.server, 'USER', 'Asha Phone');
  const rider = new Screens(await (await phone(web.browser)).newPage(), 'rider-phone');
  await logIn(rider, `${web.server.url}/app/`, riderAccount);
  await rider.page.getByRole('link', { name: 'Settings' }).click();
  const section = rider.page.getByRole('region', { name: 'Phone number' });
  await section.getByLabel('Number').fill('+919845033333');
  await section.getByRole('button', { name: 'Send a code' }).click();
  await section.getByText('A code was sent to +919845033333.').waitFor();
  await rider.check('phone-code-sent');
  await section.getByLabel('Code sent to +919845033333').fill(web.provider.lastCodeTo('+919845033333')!);
  await section.getByRole('button', { name: 'Verify' }).click();
  await section.getByText('Verified: +919845033333.', { exact: false }).waitFor();
  await rider.check('phone-verified');
});

test("the driver calls the rider without either number shown, and the driver's SOS alarms the console", async () => {
  const operatorAccount = await accountOverHttp(web.server, 'ADMIN', 'Olga Operator', OPERATOR);
  const riderAccount = await accountOverHttp(web.server, 'USER', 'Meera Rider');
  const driverAccount = await accountOverHttp(web.server, 'DRIVER', 'Kiran Rao');
  const riderPhone = '+919845011111';
  const driverPhone = '+919845022222';
  await verify(riderAccount, riderPhone);
  await verify(driverAccount, driverPhone);
  assert.equal((await http(`${web.server.url}/drivers/me/profile`, 'PUT', { vehicleType: 'mini', vehicleNumber: 'KA05DS1234' }, driverAccount.token)).status, 200);
  assert.equal((await http(`${web.server.url}/drivers/me/location`, 'PUT', NEAR_MG_ROAD, driverAccount.token)).status, 200);
  assert.equal((await http(`${web.server.url}/rides/book`, 'POST', TRIP, riderAccount.token)).status, 200);
  const offer = await eventually(async () => (await http(`${web.server.url}/drivers/me/offers`, 'GET', undefined, driverAccount.token)).body[0], 'an offer to the driver');
  assert.equal((await http(`${web.server.url}/drivers/me/offers/${offer.offerId}/accept`, 'POST', undefined, driverAccount.token)).status, 200);

  const ops = new Screens(await (await phone(web.browser, { viewport: { width: 1280, height: 900 } })).newPage(), 'ops-driver-sos');
  await logIn(ops, `${web.server.url}/app/ops`, operatorAccount);
  await ops.page.getByRole('link', { name: 'Incidents' }).waitFor();

  const driver = new Screens(await (await phone(web.browser)).newPage(), 'driver-safety');
  await logIn(driver, `${web.server.url}/app/driver`, driverAccount);
  await driver.page.getByRole('heading', { name: 'Pick up Meera Rider' }).waitFor();
  await driver.page.getByRole('button', { name: 'Call rider' }).click();
  await driver.page.getByText('Your phone rings first, then the rider').waitFor();
  const bridged = web.provider.calls.at(-1);
  assert.deepEqual([bridged?.from, bridged?.to, bridged?.callerId], [driverPhone, riderPhone, VIRTUAL_NUMBER]);
  assert.ok(!(await driver.page.content()).includes(riderPhone.slice(3)), "the driver's screen shows no rider number");
  await driver.check('call-rider');

  await driver.page.getByRole('button', { name: 'SOS' }).click();
  await driver.page.getByText('Our operators have been alerted').waitFor();
  await driver.check('driver-sos');
  const alarm = ops.page.getByRole('alert').filter({ hasText: 'SOS: an incident is waiting for an operator.' });
  await alarm.waitFor();
  await ops.page.getByRole('link', { name: 'Incidents' }).click();
  await ops.page.getByRole('heading', { name: /Incident \d+: SOS by the driver/ }).waitFor();
  await ops.check('driver-incident');
});
