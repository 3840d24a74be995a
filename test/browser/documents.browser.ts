import assert from 'node:assert/strict';
import { deflateSync } from 'node:zlib';
import { test } from 'node:test';
import { http } from '../helpers/server-process.ts';
import { accountOverHttp, logIn, phone, Screens, serverAndBrowser } from './browser.ts';

// A driver uploads a document in the driver app; the console's documents review: an operator opens
// a driver's documents, sees the uploaded image, rejects it with a reason, and approves a PDF; the
// driver's documents then say so.

const OPERATOR = 'ops-documents@example.com';
const web = serverAndBrowser({ ADMIN_EMAILS: OPERATOR });

/** A real 2×2 grey PNG, so the browser draws it. */
function tinyPng(): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.from([0, 0, 0, 2, 0, 0, 0, 2, 8, 0, 0, 0, 0]);
  const rows = Buffer.from([0, 128, 128, 0, 128, 128]);
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', header), chunk('IDAT', deflateSync(rows)), chunk('IEND', Buffer.alloc(0))]);
}

function crc32(data: Buffer): number {
  let crc = ~0;
  for (const byte of data) {
    crc ^= byte;
    for (let bit = 0; bit < 8; bit++) crc = (crc >>> 1) ^ (0xedb88320 & -(crc & 1));
  }
  return ~crc >>> 0;
}

test('an operator sees a driver’s uploaded licence, rejects it with a reason, and approves the registration', async () => {
  const operatorAccount = await accountOverHttp(web.server, 'ADMIN', 'Olga Operator', OPERATOR);
  const driver = await accountOverHttp(web.server, 'DRIVER', 'Kiran Documents');
  assert.equal((await http(`${web.server.url}/drivers/me/profile`, 'PUT', { vehicleType: 'mini', vehicleNumber: 'KA05DC1234' }, driver.token)).status, 200);
  const upload = (kind: string, body: Record<string, string>) => http(`${web.server.url}/drivers/me/documents/${kind}`, 'PUT', { expiresOn: '2031-03-31', ...body }, driver.token);
  assert.equal((await upload('licence', { contentType: 'image/png', data: tinyPng().toString('base64') })).status, 200);
  assert.equal((await upload('registration', { contentType: 'application/pdf', data: Buffer.from('%PDF-1.4\n%%EOF\n').toString('base64'), registeredOn: '2022-01-15' })).status, 200);

  const ops = new Screens(await (await phone(web.browser, { viewport: { width: 1280, height: 900 } })).newPage(), 'ops-documents');
  await logIn(ops, `${web.server.url}/app/ops`, operatorAccount);
  const { page } = ops;
  await page.getByRole('link', { name: 'Drivers' }).click();
  const item = page.getByRole('list', { name: 'Drivers' }).getByRole('listitem').filter({ hasText: 'Kiran Documents' });
  await item.getByText('Documents of Kiran Documents').click();
  const licence = item.locator('[data-document="licence"]');
  await licence.getByRole('button', { name: 'Show the driving licence' }).click();
  const image = licence.getByRole('img', { name: 'Driving licence of Kiran Documents' });
  await image.waitFor();
  const drawn = await image.evaluate((img) => {
    const loaded = img as unknown as { complete: boolean; naturalWidth: number };
    return loaded.complete && loaded.naturalWidth === 2;
  });
  assert.ok(drawn, 'the uploaded image is drawn');
  await ops.check('documents');

  await licence.getByRole('button', { name: 'Reject the driving licence' }).click();
  const rejecting = page.getByRole('dialog', { name: 'Reject the driving licence?' });
  await rejecting.getByLabel('Reason').fill('The photo is blurred');
  await rejecting.getByRole('button', { name: 'Reject', exact: true }).click();
  await licence.getByText('Reason: The photo is blurred').waitFor();
  const registration = item.locator('[data-document="registration"]');
  await registration.getByRole('button', { name: 'Show the vehicle registration' }).click();
  await registration.getByRole('link', { name: 'Open the vehicle registration (PDF)' }).waitFor();
  await registration.getByRole('button', { name: 'Approve the vehicle registration' }).click();
  await registration.getByText('Approved').waitFor();
  await ops.check('documents-decided');

  const own = await http(`${web.server.url}/drivers/me/documents`, 'GET', undefined, driver.token);
  assert.deepEqual(own.body.items.map((d: { kind: string; status: string }) => [d.kind, d.status]), [['licence', 'rejected'], ['registration', 'approved']]);
});

test('a driver uploads the licence on the Vehicle screen and sees it wait for an operator', async () => {
  const driverAccount = await accountOverHttp(web.server, 'DRIVER', 'Ravi Uploads');
  assert.equal((await http(`${web.server.url}/drivers/me/profile`, 'PUT', { vehicleType: 'mini', vehicleNumber: 'KA05UP1234' }, driverAccount.token)).status, 200);
  const driver = new Screens(await (await phone(web.browser)).newPage(), 'driver-documents');
  await logIn(driver, `${web.server.url}/app/driver`, driverAccount);
  await driver.page.getByRole('link', { name: 'Vehicle' }).click();
  const form = driver.page.getByRole('form', { name: 'Upload the driving licence' });
  await form.getByLabel('File').setInputFiles({ name: 'licence.png', mimeType: 'image/png', buffer: tinyPng() });
  await form.getByLabel('Valid through').fill('2031-03-31');
  await form.getByRole('button', { name: 'Upload' }).click();
  await driver.page.locator('[data-document="licence"]').getByText('Valid through 2031-03-31: waiting for an operator').waitFor();
  await driver.check('documents');
  const own = await http(`${web.server.url}/drivers/me/documents`, 'GET', undefined, driverAccount.token);
  assert.deepEqual(own.body.items.map((d: { kind: string; contentType: string; status: string }) => [d.kind, d.contentType, d.status]), [['licence', 'image/png', 'pending']]);
});
