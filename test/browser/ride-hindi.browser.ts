import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { test } from 'node:test';
import type { Page } from 'playwright-core';
import { messages as hi } from '../../web/src/i18n/hi.ts';
import { assertNoEnglish } from './no-english.ts';
import { phone, Screens, serverAndBrowser } from './browser.ts';

// Issue 33: a rider whose phone speaks Hindi takes a whole ride, and no screen of the rider app shows
// English. The driver's side runs in English (its own test is in Kannada). At the end the rider picks
// English in Settings: it applies at once, is saved, and a new sign-in on a Hindi phone gets it.

const PICKUP = { latitude: 12.9756, longitude: 77.6066 };
const START = { latitude: 12.9846, longitude: 77.6066 };
const RIDER = 'Asha Rider';
const DRIVER = 'Ravi Driver';
const PLATE = 'KA01AB1234';

const web = serverAndBrowser();

const lang = (page: Page) => page.evaluate(() => (globalThis as any).document.documentElement.lang as string);

test('a rider takes a whole ride in Hindi with no English on the screens', async () => {
  const riderContext = await phone(web.browser, { locale: 'hi-IN' });
  const driverContext = await phone(web.browser, { geolocation: START, permissions: ['geolocation'] });
  const rider = new Screens(await riderContext.newPage(), 'rider-hi');
  const driver = new Screens(await driverContext.newPage(), 'driver-en');
  const r = rider.page;
  const d = driver.page;
  /** The screen as it stands: accessible, and nothing in English but the names allowed. */
  const screen = async (name: string, extra: string[] = []) => {
    await rider.check(name);
    await assertNoEnglish(r, name, [RIDER, DRIVER, PLATE, ...extra]);
  };

  // Sign-up in Hindi, from the browser's language.
  const email = `asha-${randomBytes(4).toString('hex')}@example.com`;
  await r.goto(`${web.server.url}/app/`);
  await r.getByRole('heading', { name: hi['auth.logIn'] }).waitFor();
  assert.equal(await lang(r), 'hi');
  await screen('log-in');
  await r.getByRole('button', { name: hi['auth.signUp'] }).click();
  await r.getByLabel(hi['auth.name']).fill(RIDER);
  await r.getByLabel(hi['auth.email']).fill(email);
  const mailsBefore = web.server.smtp.mails.length;
  await r.getByRole('button', { name: hi['auth.sendCode'] }).click();
  const code = await web.server.smtp.otpFor(email, mailsBefore);
  await r.getByLabel(hi['auth.codeFromEmail']).fill(code);
  await r.getByLabel(hi['auth.choosePassword']).fill('a good password');
  await screen('sign-up-code');
  await r.getByRole('button', { name: hi['auth.createAccount'] }).click();
  await r.getByRole('heading', { name: hi['book.title'] }).waitFor();
  await screen('book');

  // The driver, in English, goes online.
  driver.expectAnswer(404, '/drivers/me/profile');
  await d.goto(`${web.server.url}/app/driver`);
  await d.getByRole('button', { name: 'Sign up' }).click();
  const driverEmail = `ravi-${randomBytes(4).toString('hex')}@example.com`;
  await d.getByLabel('Your name').fill(DRIVER);
  await d.getByLabel('E-mail').fill(driverEmail);
  const driverMails = web.server.smtp.mails.length;
  await d.getByRole('button', { name: 'Send me a code' }).click();
  await d.getByLabel('Code from the e-mail').fill(await web.server.smtp.otpFor(driverEmail, driverMails));
  await d.getByLabel('Choose a password').fill('a good password');
  await d.getByRole('button', { name: 'Create account' }).click();
  await d.getByLabel('Registration number').fill(PLATE);
  await d.getByRole('button', { name: 'Save vehicle' }).click();
  await d.getByText('Vehicle saved.').waitFor();
  await d.getByRole('link', { name: 'Drive' }).click();
  await d.getByRole('button', { name: 'Go online' }).click();
  await d.getByText('Waiting for ride offers…').waitFor();

  // Prices and booking.
  await r.getByLabel(hi['book.pickup'], { exact: true }).fill('MG Road');
  await r.getByRole('button', { name: 'MG Road Metro' }).click();
  await r.getByLabel(hi['book.drop'], { exact: true }).fill('Koramangala');
  await r.getByRole('button', { name: 'Koramangala Forum Mall' }).click();
  await r.getByRole('radio', { name: new RegExp(hi['rideType.mini']) }).check();
  await r.getByLabel(hi['book.payment']).selectOption('CASH');
  await r.getByText(hi['book.howPriceMade'].replace('{type}', hi['rideType.mini'])).waitFor();
  await screen('estimate');
  await r.getByRole('button', { name: new RegExp(`^${hi['rideType.mini']} बुक करें`) }).click();
  await r.getByRole('heading', { name: hi['status.REQUESTED'] }).waitFor();
  const startCode = (await r.getByTestId('start-code').textContent())!.trim();
  await screen('finding-driver');

  // The driver accepts; the rider follows them coming.
  const offer = d.getByRole('article').filter({ hasText: 'New ride' });
  await offer.getByRole('button', { name: 'Accept' }).click();
  await r.getByRole('heading', { name: hi['status.ACCEPTED'] }).waitFor();
  await r.getByRole('heading', { name: hi['driverCard.title'] }).waitFor();
  await r.locator('.pin-driver').waitFor();
  await driverContext.setGeolocation({ latitude: PICKUP.latitude + 0.003, longitude: PICKUP.longitude });
  await r.getByTestId('eta').waitFor();
  await screen('driver-coming');

  // The trip, and its end.
  await d.getByLabel("Rider's start code").fill(startCode);
  await d.getByRole('button', { name: 'Start the ride' }).click();
  await r.getByRole('heading', { name: hi['status.PICKED'] }).waitFor();
  const endCode = (await r.getByTestId('end-code').textContent())!.trim();
  await screen('on-trip');
  await driverContext.setGeolocation({ latitude: 12.9346, longitude: 77.6113 });
  await d.getByLabel("Rider's end code").fill(endCode);
  await d.getByRole('button', { name: 'Complete the ride' }).click();
  await r.getByRole('heading', { name: hi['status.COMPLETED'] }).waitFor();
  await r.getByTestId('receipt').getByRole('link', { name: 'हस्ताक्षरित रसीद डाउनलोड करें' }).waitFor();
  await r.getByText(/^ड्राइवर को ₹[\d,.]+ नकद दिए।$/).waitFor();
  await screen('completed');

  // Rating, history, settings.
  await r.locator('.stars label').nth(4).click();
  await r.getByLabel(hi['rating.comment']).fill('बढ़िया सवारी');
  await r.getByRole('button', { name: hi['rating.send'] }).click();
  await r.getByText(hi['rating.thanks'].replace('{rating}', '5')).waitFor();
  await screen('rated');
  await r.getByRole('link', { name: hi['rider.nav.history'] }).click();
  await r.getByRole('heading', { name: hi['history.title'] }).waitFor();
  await r.getByText(hi['history.rated'].replace('{rating}', '5')).waitFor();
  await screen('history');
  await r.getByRole('link', { name: hi['rider.nav.settings'] }).click();
  await r.getByRole('heading', { name: hi['settings.title'] }).waitFor();
  // The voice language's hint names language tags, as a person types them.
  await screen('settings', ['en', 'hi-IN']);

  // English from the picker: at once, and saved.
  await r.getByRole('combobox', { name: new RegExp(`^${hi['language.label']}`) }).selectOption('en');
  await r.getByRole('heading', { name: 'Settings' }).waitFor();
  assert.equal(await lang(r), 'en');
  await rider.check('settings-in-english');
  await riderContext.close();

  const again = await phone(web.browser, { locale: 'hi-IN' });
  const page = await again.newPage();
  await page.goto(`${web.server.url}/app/`);
  await page.getByLabel(hi['auth.email']).fill(email);
  await page.getByLabel(hi['auth.password']).fill('a good password');
  await page.getByRole('button', { name: hi['auth.logIn'] }).last().click();
  await page.getByRole('heading', { name: 'Where to?' }).waitFor();
  assert.equal(await lang(page), 'en', "the saved choice wins over the phone's language");
  await again.close();
  await driverContext.close();
});
