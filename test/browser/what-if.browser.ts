import assert from 'node:assert/strict';
import { test } from 'node:test';
import { http } from '../helpers/server-process.ts';
import { accountOverHttp, logIn, phone, Screens, serverAndBrowser } from './browser.ts';

// decisions.md "What-if replay", in the console: an operator tries a surge cap on the last 7 days
// (riders who asked at one corner while no driver was free, so the zone surged), sees the three
// columns and the hour-by-hour charts, and saves the version citing the replay.

const OPERATOR = 'ops-what-if@example.com';
const web = serverAndBrowser({ ADMIN_EMAILS: OPERATOR });
const PICKUP = { lat: 12.9756, lon: 77.6066 };

test('an operator tries a surge cap of 1 on the last week, sees the three columns and the charts, and saves the version citing the replay', async () => {
  const operatorAccount = await accountOverHttp(web.server, 'ADMIN', 'Olga Operator', OPERATOR);
  for (let i = 0; i < 4; i++) {
    const rider = await accountOverHttp(web.server, 'USER', `Rider ${i}`);
    const booked = await http(`${web.server.url}/rides/book`, 'POST', { pickupLocation: 'MG Road Metro', dropLocation: 'Koramangala Forum Mall', pickupLat: PICKUP.lat, pickupLon: PICKUP.lon, dropLat: 12.9346, dropLon: 77.6113 }, rider.token);
    assert.equal(booked.status, 200, JSON.stringify(booked.body));
  }

  const ops = new Screens(await (await phone(web.browser, { viewport: { width: 1280, height: 900 } })).newPage(), 'ops-what-if');
  await logIn(ops, `${web.server.url}/app/ops`, operatorAccount);
  const { page } = ops;
  await page.getByRole('link', { name: 'Pricing' }).click();
  await page.getByLabel('Surge cap').fill('1');
  const panel = page.getByRole('region', { name: 'What if: replay a period with these settings' });
  await panel.getByRole('button', { name: 'Run the replay' }).click();
  const totals = panel.getByRole('table', { name: 'The period in all' });
  await totals.waitFor({ timeout: 60_000 });
  const cell = (figure: string, column: string) => totals.locator(`[data-figure="${figure}"] [data-column="${column}"]`).textContent();
  assert.deepEqual([await cell('requests', 'actual'), await cell('requests', 'asWas'), await cell('requests', 'candidate')], ['4', '4', '4']);
  assert.deepEqual(await totals.getByRole('columnheader').allTextContents(), ['Figure', 'Actual', 'Replayed as was', 'Candidate']);
  assert.notEqual(await cell('surgedShare', 'asWas'), '0%', 'as was, riders waiting with no driver free were quoted a surge');
  assert.equal(await cell('surgedShare', 'candidate'), '0%', 'a cap of 1: no surge');
  for (const chart of ['Share matched', 'Pickup ETA, median', 'Mean fare', 'Share surged', 'Driver earnings per online hour', 'Cancellations']) {
    const figure = panel.getByRole('figure', { name: new RegExp(`^${chart} hour by hour`) });
    assert.equal(await figure.locator('path[data-series]').count(), 3, `${chart}: three lines`);
  }
  const surged = panel.getByRole('figure', { name: /^Share surged hour by hour/ });
  await surged.getByText('Share surged: the table').click();
  assert.ok((await surged.getByRole('table').getByRole('row').count()) >= 2, 'the table alternative has the hours');
  await ops.check('what-if');

  await page.getByLabel(/Cite the what-if replay/).check();
  await page.getByRole('button', { name: 'Save as a new version' }).click();
  await page.getByText('Version 2 saved').waitFor();
  const audit = await http(`${web.server.url}/admin/audit?targetType=pricing&targetId=2`, 'GET', undefined, operatorAccount.token);
  const cited = audit.body.items[0].after.whatIf;
  assert.equal(cited.id, await panel.locator('[data-what-if]').getAttribute('data-what-if'));
  assert.equal(cited.candidatePricing, 'this version');
  await ops.check('what-if-cited');
});
