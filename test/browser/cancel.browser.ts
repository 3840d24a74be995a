import assert from 'node:assert/strict';
import { test } from 'node:test';
import { eventually } from '../helpers/dispatch.ts';
import { http } from '../helpers/server-process.ts';
import { accountOverHttp, logIn, phone, Screens, serverAndBrowser, type Account } from './browser.ts';

// Cancelling asks first, with the fee the service would charge now (GET /rides/cancel/{id}): free
// while no driver has accepted, then the fee that the cancellation does charge.

const web = serverAndBrowser();

/** Near MG Road Metro, where the first test's rider books; the second test is across the city, out of this driver's reach. */
const NEAR_MG_ROAD = { lat: 12.9806, lon: 77.6066 };
const NEAR_WHITEFIELD = { lat: 12.9865, lon: 77.7364 };

/** A driver with a vehicle, waiting there. */
async function driverAt(position: { lat: number; lon: number }, name: string, vehicleNumber: string): Promise<Account> {
  const driver = await accountOverHttp(web.server, 'DRIVER', name);
  assert.equal((await http(`${web.server.url}/drivers/me/profile`, 'PUT', { vehicleType: 'mini', vehicleNumber }, driver.token)).status, 200);
  assert.equal((await http(`${web.server.url}/drivers/me/location`, 'PUT', position, driver.token)).status, 200);
  return driver;
}

/** The driver takes the ride's offer (over HTTP where the test is about the other party's app). */
async function accept(driver: Account): Promise<number> {
  const offer = await eventually(async () => (await http(`${web.server.url}/drivers/me/offers`, 'GET', undefined, driver.token)).body[0], 'an offer to the driver');
  const accepted = await http(`${web.server.url}/drivers/me/offers/${offer.offerId}/accept`, 'POST', undefined, driver.token);
  assert.equal(accepted.status, 200);
  return accepted.body.id;
}

test('a rider sees cancelling is free before a driver accepts, then the fee it costs after, and is charged exactly that', async () => {
  const riderAccount = await accountOverHttp(web.server, 'USER', 'Meera Rider');
  const driverAccount = await driverAt(NEAR_MG_ROAD, 'Kiran Driver', 'KA05MN4321');

  const context = await phone(web.browser);
  const rider = new Screens(await context.newPage(), 'rider-cancel');
  const page = rider.page;
  await logIn(rider, `${web.server.url}/app/`, riderAccount);
  await page.getByLabel('Pickup', { exact: true }).fill('mg road');
  await page.getByRole('button', { name: 'MG Road Metro' }).click();
  await page.getByLabel('Drop', { exact: true }).fill('forum');
  await page.getByRole('button', { name: 'Koramangala Forum Mall' }).click();
  await page.getByLabel('Payment').selectOption('UPI');
  await page.getByRole('button', { name: /^Book / }).click();
  await page.getByRole('heading', { name: 'Finding a driver' }).waitFor();

  // Asked while no driver has accepted: free; the rider keeps the ride.
  const dialog = page.getByRole('dialog', { name: 'Cancel this ride?' });
  await page.getByRole('button', { name: 'Cancel ride' }).click();
  await dialog.getByText('Cancelling now is free.').waitFor();
  await rider.check('asked-free');
  await dialog.getByRole('button', { name: 'Keep my ride' }).click();
  await dialog.waitFor({ state: 'hidden' });

  await accept(driverAccount);
  await page.getByRole('heading', { name: 'Driver on the way' }).waitFor();

  await page.getByRole('button', { name: 'Cancel ride' }).click();
  const quoted = dialog.getByTestId('cancellation-fee').filter({ hasText: /^Cancelling now costs ₹[\d,]+\.$/ });
  await quoted.waitFor();
  const fee = Number((await quoted.textContent())!.replace(/[^\d]/g, ''));
  assert.ok(fee > 0, 'a fee once a driver is on the way');
  await rider.check('asked-fee');
  await dialog.getByLabel('Reason (optional)').fill('Plans changed');
  await dialog.getByRole('button', { name: 'Yes, cancel' }).click();

  await page.getByRole('heading', { name: 'Cancelled' }).waitFor();
  const [ride] = (await http(`${web.server.url}/rides/history`, 'GET', undefined, riderAccount.token)).body;
  assert.equal(ride.cancelledBy, 'rider');
  assert.equal(ride.cancellationFee, fee, 'the fee charged is the fee shown before confirming');
  await page.getByText(`Cancelled by the rider. Cancellation fee: ₹${fee}.`).waitFor();
  await page.getByRole('button', { name: `Pay ₹${fee} online` }).waitFor();
  await rider.check('cancelled');

  await page.getByRole('button', { name: 'Book another ride' }).click();
  await page.getByRole('heading', { name: 'Where to?' }).waitFor();
  await context.close();
});

test('a driver who cancels an accepted ride is told first that it costs them nothing', async () => {
  const riderAccount = await accountOverHttp(web.server, 'USER', 'Farah Rider');
  const driverAccount = await driverAt(NEAR_WHITEFIELD, 'Joseph Driver', 'KA05MN9876');
  const booked = await http(
    `${web.server.url}/rides/book`,
    'POST',
    { pickupLocation: 'Whitefield ITPL', dropLocation: 'Marathahalli', pickupLat: 12.9855, pickupLon: 77.7364, dropLat: 12.9569, dropLon: 77.7011, paymentMode: 'CASH' },
    riderAccount.token,
  );
  assert.equal(booked.status, 200);
  assert.equal(await accept(driverAccount), booked.body.id);

  const context = await phone(web.browser, { permissions: ['geolocation'], geolocation: { latitude: NEAR_WHITEFIELD.lat, longitude: NEAR_WHITEFIELD.lon } });
  const driver = new Screens(await context.newPage(), 'driver-cancel');
  const page = driver.page;
  await logIn(driver, `${web.server.url}/app/driver`, driverAccount);
  await page.getByRole('heading', { name: 'Pick up Farah Rider' }).waitFor();
  await page.getByRole('button', { name: 'Cancel ride' }).click();
  await page.getByTestId('cancellation-fee').filter({ hasText: 'Cancelling now is free.' }).waitFor();
  await driver.check('asked');
  await page.getByRole('button', { name: 'Yes, cancel' }).click();

  await page.getByRole('heading', { name: 'Cancelled' }).waitFor();
  const ride = (await http(`${web.server.url}/rides/status/${booked.body.id}`, 'GET', undefined, riderAccount.token)).body;
  assert.equal(ride.status, 'CANCELLED');
  assert.equal(ride.cancelledBy, 'driver');
  assert.equal(ride.cancellationFee, null);
  await context.close();
});
