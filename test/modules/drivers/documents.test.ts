import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { routes } from '../../../src/contract/routes.ts';
import type { DocumentKind, UploadDocumentBody } from '../../../src/contract/types.ts';
import { apiOf, asReply } from '../../helpers/api.ts';
import { call, createTestApp, type TestApp } from '../../helpers/app.ts';
import { driverAt, eventually, kmNorth, offerOf, offersOf, report } from '../../helpers/dispatch.ts';
import { signUp, type TestUser } from '../../helpers/factories.ts';
import { accept, assertError, assertOk, bookRide } from '../../helpers/rides.ts';
import { COMPLIANT } from '../admin/compliant-rules.ts';
import { auditOf, operatorApp, type OperatorApp } from '../admin/operator.ts';

// Drivers' documents (decisions.md "Safety"): uploads checked by their bytes, the operators' review of
// each file, expiries with a notice 7 days before, DRIVER_DOCUMENTS_REQUIRED stopping offers and
// accepts, and the vehicle age IN-MVAG-2025 allows.

const DAY = 86_400_000;
const KINDS: DocumentKind[] = ['licence', 'registration', 'insurance', 'permit'];
const PDF = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\n%%EOF\n');
const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.from('IHDR and the rest')]);

const dayOf = (t: TestApp, days: number) => new Date(t.clock.now() + days * DAY).toISOString().slice(0, 10);
const upload = async (t: TestApp, driver: TestUser, kind: DocumentKind, body: Partial<UploadDocumentBody> = {}) =>
  asReply(
    await apiOf(t, driver).send(routes.drivers.uploadDocument, {
      params: { kind },
      body: { contentType: 'application/pdf', data: PDF.toString('base64'), expiresOn: dayOf(t, 365), ...(kind === 'registration' ? { registeredOn: dayOf(t, -2 * 365) } : {}), ...body },
    }),
  );
const review = async (t: TestApp, admin: TestUser, driverId: number, kind: DocumentKind, reason?: string) =>
  asReply(await apiOf(t, admin).send(reason === undefined ? routes.admin.approveDocument : routes.admin.rejectDocument, { params: { driverId, kind }, body: reason === undefined ? undefined : { reason } }));
const noticesOf = async (t: TestApp, user: TestUser) => (await call(t.app, 'GET', '/notifications/history', { token: user.token })).body.notifications as Array<{ eventType: string; title: string; message: string }>;

/** Every kind uploaded (expiring as given, else in a year) and approved. */
async function documented(t: TestApp, admin: TestUser, driver: TestUser, expiresIn: Partial<Record<DocumentKind, number>> = {}): Promise<void> {
  for (const kind of KINDS) {
    assertOk(await upload(t, driver, kind, { expiresOn: dayOf(t, expiresIn[kind] ?? 365) }), `upload ${kind}`);
    assertOk(await review(t, admin, driver.id, kind), `approve ${kind}`);
  }
}

describe('driver documents', () => {
  let op: OperatorApp;
  before(async () => {
    op = await operatorApp({ accessTokenTtlSeconds: 86_400 * 30 });
  });
  after(() => op.t.close());

  test('a driver uploads each kind; an operator sees each file, rejects with a reason and approves, audited and notified', async () => {
    const { t, admin } = op;
    const driver = await signUp(t, { role: 'DRIVER' });
    const uploaded = await upload(t, driver, 'licence', { contentType: 'image/png', data: PNG.toString('base64') });
    assertOk(uploaded, 'upload');
    assert.deepEqual({ ...uploaded.body, uploadedAt: undefined }, {
      driverId: driver.id, kind: 'licence', contentType: 'image/png', size: PNG.length, expiresOn: dayOf(t, 365), registeredOn: null, status: 'pending', reason: null, valid: false, uploadedAt: undefined, reviewedAt: null,
    });
    const own = asReply(await apiOf(t, driver).send(routes.drivers.documents));
    assertOk(own);
    assert.deepEqual(own.body.missing, ['registration', 'insurance', 'permit']);
    assert.equal(own.body.cleared, false);

    const listed = asReply(await apiOf(t, admin).send(routes.admin.driverDocuments, { params: { driverId: driver.id } }));
    assertOk(listed);
    assert.deepEqual(listed.body.items.map((d: { kind: string; status: string }) => [d.kind, d.status]), [['licence', 'pending']]);
    const file = await t.app.inject({ method: 'GET', url: `/admin/drivers/${driver.id}/documents/licence/file`, headers: { authorization: `Bearer ${admin.token}` } });
    assert.equal(file.statusCode, 200);
    assert.equal(file.headers['content-type'], 'image/png');
    assert.equal(file.headers['x-content-type-options'], 'nosniff');
    assert.deepEqual(file.rawPayload, PNG, 'the operator sees the very file');
    const notOperator = await t.app.inject({ method: 'GET', url: `/admin/drivers/${driver.id}/documents/licence/file`, headers: { authorization: `Bearer ${driver.token}` } });
    assert.equal(notOperator.statusCode, 403);

    const rejected = await review(t, admin, driver.id, 'licence', 'The photo is blurred');
    assertOk(rejected, 'reject');
    assert.deepEqual([rejected.body.status, rejected.body.reason], ['rejected', 'The photo is blurred']);
    assert.ok((await noticesOf(t, driver)).some((n) => n.eventType === 'DOCUMENT_REJECTED' && n.message.includes('The photo is blurred')));
    assertOk(await upload(t, driver, 'licence'), 'upload again');
    const approved = await review(t, admin, driver.id, 'licence');
    assertOk(approved, 'approve');
    assert.deepEqual([approved.body.status, approved.body.reason, approved.body.valid, approved.body.contentType], ['approved', null, true, 'application/pdf']);
    const trail = await auditOf(t, admin, 'driver', driver.id);
    assert.deepEqual(trail.map((entry) => entry.action).sort(), ['document.approve', 'document.reject']);
    assertError(await review(t, admin, driver.id, 'permit'), 404, 'DOCUMENT_NOT_FOUND');
  });

  test('files are PDF, JPEG or PNG by their bytes, at most 5 MB, not expired; a registration says when the vehicle was registered; riders upload nothing', async () => {
    const { t } = op;
    const driver = await signUp(t, { role: 'DRIVER' });
    assertError(await upload(t, driver, 'permit', { contentType: 'image/jpeg' }), 400, 'DOCUMENT_TYPE_MISMATCH');
    assertError(await upload(t, driver, 'permit', { data: Buffer.from('<script>alert(1)</script>').toString('base64') }), 400, 'DOCUMENT_TYPE_MISMATCH');
    const big = Buffer.concat([PDF, Buffer.alloc(5 * 1024 * 1024)]);
    assertError(await upload(t, driver, 'permit', { data: big.toString('base64') }), 400);
    assertError(await upload(t, driver, 'permit', { expiresOn: dayOf(t, -1) }), 400, 'DOCUMENT_EXPIRED');
    assertError(await upload(t, driver, 'registration', { registeredOn: undefined }), 400, 'VALIDATION_FAILED');
    assertError(await upload(t, driver, 'passport' as DocumentKind), 400, 'VALIDATION_FAILED');
    assertError(await upload(t, await signUp(t), 'licence'), 403);
    assert.deepEqual(asReply(await apiOf(t, driver).send(routes.drivers.documents)).body.items, []);
  });

  test('under IN-MVAG-2025 a vehicle first registered more than 8 years ago is refused', async () => {
    const { t, admin } = op;
    const driver = await signUp(t, { role: 'DRIVER' });
    assertOk(await upload(t, driver, 'registration', { registeredOn: dayOf(t, -9 * 365) }), 'no profile named: any age');
    assertOk(await review(t, admin, driver.id, 'registration'));
    assertOk(asReply(await apiOf(t, admin).send(routes.admin.savePricing, { body: COMPLIANT })), 'IN-MVAG-2025 on');
    const stale = asReply(await apiOf(t, driver).send(routes.drivers.documents)).body.items[0];
    assert.equal(stale.valid, false, 'the approved registration of a 9-year-old vehicle no longer counts');
    assertError(await upload(t, driver, 'registration', { registeredOn: dayOf(t, -9 * 365) }), 400, 'VEHICLE_TOO_OLD');
    assertOk(await upload(t, driver, 'registration', { registeredOn: dayOf(t, -7 * 365) }), 'a 7-year-old vehicle');
  });
});

describe('DRIVER_DOCUMENTS_REQUIRED', () => {
  const ROUND_MS = 60;
  let t: TestApp;
  let admin: TestUser;
  before(async () => {
    ({ t, admin } = await operatorApp(
      { driverDocumentsRequired: true, accessTokenTtlSeconds: 86_400 * 30, dispatch: { mode: 'nearest', batchMs: ROUND_MS, offerTtlMs: 15_000, maxMs: 120_000 } },
    ));
  });
  after(() => t.close());

  test('a driver without valid documents cannot accept; with them, they get offers', async () => {
    const pickup = kmNorth(20);
    const driver = await driverAt(t, pickup);
    const rider = await signUp(t);
    const ride = await bookRide(t, rider, { pickupLat: pickup.lat, pickupLon: pickup.lon, dropLat: pickup.lat + 0.05, dropLon: pickup.lon });
    assertError(await accept(t, driver, ride.id), 403, 'DOCUMENTS_INVALID');
    await documented(t, admin, driver);
    await offerOf(t, driver, ride.id);
  });
});

describe('document expiries', () => {
  const ROUND_MS = 60;
  let t: TestApp;
  let admin: TestUser;
  before(async () => {
    const email = `expiry-ops-${Date.now()}@example.com`;
    t = await createTestApp({ adminEmails: new Set([email]), driverDocumentsRequired: true, accessTokenTtlSeconds: 86_400 * 30, dispatch: { mode: 'nearest', batchMs: ROUND_MS, offerTtlMs: 15_000, maxMs: 120_000 } }, { documentSweepMs: 20 });
    admin = await signUp(t, { role: 'ADMIN', email });
  });
  after(() => t.close());

  test('a driver is told once, 7 days before a document expires', async () => {
    const driver = await signUp(t, { role: 'DRIVER' });
    await documented(t, admin, driver, { licence: 10, permit: 12 });
    t.clock.advance(4 * DAY);
    await eventually(async () => (await noticesOf(t, driver)).find((n) => n.eventType === 'DOCUMENT_EXPIRING' && n.title.includes('licence')), 'the licence notice');
    t.clock.advance(2 * DAY);
    await eventually(async () => (await noticesOf(t, driver)).find((n) => n.eventType === 'DOCUMENT_EXPIRING' && n.title.includes('permit')), 'the permit notice');
    const expiring = (await noticesOf(t, driver)).filter((n) => n.eventType === 'DOCUMENT_EXPIRING');
    assert.deepEqual(expiring.map((n) => n.title).sort(), ['Your driving licence expires soon', 'Your permit expires soon'], 'each once, though sweeps ran on');
  });

  test('an expired document stops offers and accepts', async () => {
    const pickup = kmNorth(40);
    const expiring = await driverAt(t, pickup);
    await documented(t, admin, expiring, { insurance: 2 });
    const rider = await signUp(t);
    const book = () => bookRide(t, rider, { pickupLat: pickup.lat, pickupLon: pickup.lon, dropLat: pickup.lat + 0.05, dropLon: pickup.lon });
    const first = await book();
    await offerOf(t, expiring, first.id);
    assertOk(asReply(await apiOf(t, rider).send(routes.rides.cancel, { params: { rideId: first.id }, body: { reason: 'testing' } })), 'cancel');

    t.clock.advance(3 * DAY);
    await eventually(async () => (await noticesOf(t, expiring)).find((n) => n.eventType === 'DOCUMENT_EXPIRED'), 'the expiry notice');
    // Both online now; the expired one is nearer, the other gets the ride.
    await report(t, expiring, pickup);
    const valid = await driverAt(t, { lat: pickup.lat + 0.01, lon: pickup.lon });
    await documented(t, admin, valid);
    const second = await book();
    await offerOf(t, valid, second.id);
    assert.ok(!(await offersOf(t, expiring)).some((offer) => offer.rideId === second.id), 'no offer to the driver with an expired document');
    assertError(await accept(t, expiring, second.id), 403, 'DOCUMENTS_INVALID');
    assert.equal(asReply(await apiOf(t, expiring).send(routes.drivers.documents)).body.cleared, false);
  });
});
