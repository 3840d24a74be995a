import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { routes } from '../../../src/contract/routes.ts';
import type { Incident, SosBody } from '../../../src/contract/types.ts';
import { apiOf, asReply } from '../../helpers/api.ts';
import { eventually, report } from '../../helpers/dispatch.ts';
import { createTestApp } from '../../helpers/app.ts';
import { signUp, uniqueEmail, type TestUser } from '../../helpers/factories.ts';
import { startPhoneProvider } from '../../helpers/phone-provider.ts';
import { acceptedRide, assertError, assertOk, bookRide, completedRide, northOf, pickedRide, TRIP } from '../../helpers/rides.ts';
import { realtimeUrl, TestSocket } from '../../realtime/socket-client.ts';
import { auditOf, operatorApp, type OperatorApp } from '../admin/operator.ts';

// SOS and incidents (decisions.md "Safety"): who may raise one and when, the operators' alarm on the
// realtime channel until one acknowledges, the audited desk, the track since the SOS, the emergency
// contact's link, and the time to acknowledge in the overview and /metrics.

const PICKUP = { lat: TRIP.pickupLat, lon: TRIP.pickupLon };

describe('SOS and incidents', () => {
  let op: OperatorApp;
  before(async () => {
    // The tests move the clock by hours in all; the operator's token outlives them.
    op = await operatorApp({ accessTokenTtlSeconds: 86_400 });
  });
  after(() => op.t.close());

  const sos = async (user: TestUser, rideId: number, body: SosBody = {}) => asReply(await apiOf(op.t, user).send(routes.safety.sos, { params: { rideId }, body }));
  const desk = async (status?: 'open' | 'acknowledged' | 'resolved') => {
    const reply = asReply(await apiOf(op.t, op.admin).send(routes.admin.incidents, { query: status ? { status } : {} }));
    assertOk(reply, 'incidents');
    return reply.body.items as Incident[];
  };
  const step = async (action: 'acknowledgeIncident' | 'resolveIncident', incidentId: number) => asReply(await apiOf(op.t, op.admin).send(routes.admin[action], { params: { incidentId } }));

  test("a rider's SOS reaches the operator's socket at once and stays open, first on the desk, until an operator acknowledges it", async () => {
    const { t, admin } = op;
    const operator = await TestSocket.connect(await realtimeUrl(t.app), admin.token);
    const rider = await signUp(t, { name: 'Asha Rao' });
    const driver = await signUp(t, { role: 'DRIVER', name: 'Ravi Kumar' });
    const { booked } = await pickedRide(t, rider, driver);

    const raised = await sos(rider, booked.id, { note: 'The driver left the route' });
    assertOk(raised, 'sos');
    assert.equal(raised.body.status, 'open');
    const alarm = await operator.socket.waitFor((m) => m.type === 'incident.created' && m.data.id === raised.body.incidentId, 'incident.created');
    const incident = alarm.data as Incident;
    assert.equal(incident.rideId, booked.id);
    assert.equal(incident.party, 'rider');
    assert.deepEqual(incident.rider && { id: incident.rider.id, name: incident.rider.name }, { id: rider.id, name: 'Asha Rao' });
    assert.deepEqual(incident.driver && { id: incident.driver.id, name: incident.driver.name }, { id: driver.id, name: 'Ravi Kumar' });
    assert.equal(incident.ride?.status, 'PICKED');
    assert.deepEqual(incident.notes.map((n) => [n.authorId, n.text]), [[rider.id, 'The driver left the route']]);

    // Still open for whoever looks, however long nobody acknowledges it.
    t.clock.advance(10 * 60_000);
    assert.equal((await desk('open')).find((i) => i.id === incident.id)?.status, 'open');
    assert.equal((await desk())[0].status, 'open', 'open incidents come first');

    const acknowledged = await step('acknowledgeIncident', incident.id);
    assertOk(acknowledged, 'ack');
    assert.equal(acknowledged.body.status, 'acknowledged');
    assert.equal(acknowledged.body.acknowledgedBy, admin.id);
    await operator.socket.waitFor((m) => m.type === 'incident.updated' && m.data.id === incident.id && m.data.status === 'acknowledged', 'incident.updated (acknowledged)');
    assert.equal((await desk('open')).some((i) => i.id === incident.id), false);
    assertError(await step('acknowledgeIncident', incident.id), 409, 'INCIDENT_NOT_OPEN');

    const noted = asReply(await apiOf(t, admin).send(routes.admin.noteIncident, { params: { incidentId: incident.id }, body: { text: 'Called the rider: safe, driver took a detour' } }));
    assertOk(noted, 'note');
    assert.deepEqual(noted.body.notes.map((n: { text: string }) => n.text), ['The driver left the route', 'Called the rider: safe, driver took a detour']);
    const resolved = await step('resolveIncident', incident.id);
    assertOk(resolved, 'resolve');
    assert.equal(resolved.body.status, 'resolved');
    assertError(await step('resolveIncident', incident.id), 409, 'INCIDENT_RESOLVED');

    const trail = await auditOf(t, admin, 'incident', incident.id);
    assert.deepEqual(trail.map((entry) => entry.action).reverse(), ['incident.ack', 'incident.note', 'incident.resolve']);
    assert.deepEqual([trail[2].before.status, trail[2].after.status], ['open', 'acknowledged']);
    await operator.socket.close();
  });

  test('the driver may raise an SOS too; anyone else may not, nor before a driver accepted, nor 30 minutes after the end', async () => {
    const { t, admin } = op;
    const rider = await signUp(t);
    const driver = await signUp(t, { role: 'DRIVER' });
    const stranger = await signUp(t, { role: 'DRIVER' });
    const requested = await bookRide(t, rider);
    assertError(await sos(rider, requested.id), 409, 'SOS_NOT_AVAILABLE');

    const { booked } = await acceptedRide(t, rider, driver);
    assertError(await sos(stranger, booked.id), 403);
    assertError(await sos(admin, booked.id), 403);
    assertError(await sos(rider, 99_999_999), 404);
    const byDriver = await sos(driver, booked.id);
    assertOk(byDriver, 'driver sos');
    assert.equal((await desk()).find((i) => i.id === byDriver.body.incidentId)?.party, 'driver');

    const { booked: ended } = await completedRide(t, rider, await signUp(t, { role: 'DRIVER' }));
    t.clock.advance(29 * 60_000);
    assertOk(await sos(rider, ended.id), 'within 30 minutes of the end');
    const { booked: later } = await completedRide(t, rider, await signUp(t, { role: 'DRIVER' }));
    t.clock.advance(30 * 60_000);
    assertError(await sos(rider, later.id), 409, 'SOS_NOT_AVAILABLE');
  });

  test('a second SOS on a ride adds its note to the unresolved incident instead of a second alarm', async () => {
    const { t } = op;
    const rider = await signUp(t);
    const driver = await signUp(t, { role: 'DRIVER' });
    const { booked } = await acceptedRide(t, rider, driver);
    const [first, second] = await Promise.all([sos(rider, booked.id, { note: 'first' }), sos(driver, booked.id, { note: 'second' })]);
    assertOk(first, 'first');
    assertOk(second, 'second');
    assert.equal(first.body.incidentId, second.body.incidentId);
    const incident = (await desk()).find((i) => i.id === first.body.incidentId)!;
    assert.deepEqual(incident.notes.map((n) => n.text).sort(), ['first', 'second']);
    assertOk(await step('resolveIncident', incident.id), 'resolve');
    const again = await sos(rider, booked.id);
    assertOk(again, 'after the first was resolved');
    assert.notEqual(again.body.incidentId, incident.id, 'a new incident once the first is resolved');
  });

  test("the incident's track holds the driver's positions from the SOS on", async () => {
    const { t } = op;
    const rider = await signUp(t);
    const driver = await signUp(t, { role: 'DRIVER' });
    const { booked } = await pickedRide(t, rider, driver);
    await report(t, driver, northOf(PICKUP, 100));
    const raised = await sos(rider, booked.id);
    assertOk(raised, 'sos');
    const after = [200, 300, 400].map((metres) => northOf(PICKUP, metres));
    for (const point of after) {
      t.clock.advance(5000);
      await report(t, driver, point);
    }
    const incident = await eventually(async () => {
      const found = (await desk()).find((i) => i.id === raised.body.incidentId)!;
      return found.track.length === after.length ? found : undefined;
    }, 'three points on the track');
    assert.deepEqual(incident.track.map(({ lat, lon }) => ({ lat, lon })), after);
  });

  test("the reporter's emergency contact is e-mailed the trip's sharing link, which shows nothing of the rider", async () => {
    const { t } = op;
    const rider = await signUp(t, { name: 'Meera Iyer' });
    const contact = uniqueEmail('family');
    assertOk(asReply(await apiOf(t, rider).send(routes.settings.update, { body: { emergencyContact: contact } })), 'settings');
    const driver = await signUp(t, { role: 'DRIVER' });
    const { booked } = await acceptedRide(t, rider, driver);
    const raised = await sos(rider, booked.id);
    assertOk(raised, 'sos');
    assert.equal(raised.body.emergencyContactTold, true);

    const mail = await eventually(async () => t.smtp.mails.find((m) => m.to.includes(contact)), 'the mail to the contact');
    const token = /\/share\/([A-Za-z0-9_-]{43})/.exec(mail.raw)?.[1];
    assert.ok(token, mail.raw);
    const shared = asReply(await apiOf(t).send(routes.safety.shared, { params: { token } }));
    assertOk(shared, 'the link works');
    assert.equal(shared.body.status, 'ACCEPTED');
    assert.ok(!JSON.stringify(shared.body).includes('Meera'));

    const nameOnly = await signUp(t);
    assertOk(asReply(await apiOf(t, nameOnly).send(routes.settings.update, { body: { emergencyContact: 'Mom' } })), 'settings');
    const { booked: other } = await acceptedRide(t, nameOnly, await signUp(t, { role: 'DRIVER' }));
    assert.equal((await sos(nameOnly, other.id)).body.emergencyContactTold, false, 'a name alone reaches nobody');
  });

  test("the contact of a rider who chose Hindi is written to in Hindi", async () => {
    const { t } = op;
    const rider = await signUp(t, { name: 'Meera Iyer' });
    const contact = uniqueEmail('family');
    assertOk(asReply(await apiOf(t, rider).send(routes.settings.update, { body: { emergencyContact: contact, language: 'hi' } })), 'settings');
    const { booked } = await acceptedRide(t, rider, await signUp(t, { role: 'DRIVER' }));
    assertOk(await sos(rider, booked.id), 'sos');

    const mail = await t.smtp.lastTo(contact);
    assert.equal(mail.subject, 'Meera Iyer को मदद चाहिए: उनकी सवारी देखें');
    assert.match(mail.text, /^Meera Iyer ने सवारी के दौरान SOS दबाया। सवारी को लाइव देखें: http:\/\/\S+\/share\/[A-Za-z0-9_-]{43}\nहमारे ऑपरेटरों को सूचित कर दिया गया है।/);
  });

  test('the time to acknowledge is in the overview and in /metrics', async () => {
    const { t } = op;
    const rider = await signUp(t);
    const driver = await signUp(t, { role: 'DRIVER' });
    const { booked } = await acceptedRide(t, rider, driver);
    const raised = await sos(rider, booked.id);
    const before = asReply(await apiOf(t, op.admin).send(routes.admin.overview)).body.incidents;
    assert.ok(before.open >= 1);
    t.clock.advance(42_000);
    assertOk(await step('acknowledgeIncident', raised.body.incidentId), 'ack');
    const overview = asReply(await apiOf(t, op.admin).send(routes.admin.overview)).body.incidents;
    assert.equal(overview.open, before.open - 1);
    assert.ok(overview.acknowledgedToday >= 1);
    assert.equal(typeof overview.meanAcknowledgeSeconds, 'number');
    const metrics = (await t.app.inject({ method: 'GET', url: '/metrics' })).body;
    assert.match(metrics, /ride_hailing_incident_acknowledge_seconds_bucket\{le="60"\} [1-9]/);
    assert.match(metrics, /ride_hailing_incidents_unacknowledged \d+/);
  });
});

test("an emergency contact that is a phone number is sent the trip's link by SMS", async () => {
  const provider = await startPhoneProvider();
  const t = await createTestApp({ smsUrl: provider.smsUrl });
  try {
    const rider = await signUp(t, { name: 'Meera Iyer' });
    assertOk(asReply(await apiOf(t, rider).send(routes.settings.update, { body: { emergencyContact: '+91 98450 12345' } })), 'settings');
    const { booked } = await acceptedRide(t, rider, await signUp(t, { role: 'DRIVER' }));
    const raised = asReply(await apiOf(t, rider).send(routes.safety.sos, { params: { rideId: booked.id }, body: {} }));
    assertOk(raised, 'sos');
    assert.equal(raised.body.emergencyContactTold, true);
    const sms = await eventually(async () => provider.messages.find((m) => m.to === '+91 98450 12345'), 'the SMS to the contact');
    assert.match(sms.text, /^Meera Iyer pressed SOS during a ride\. Follow the ride live: http:\/\/\S+\/share\/[A-Za-z0-9_-]{43}\n/);
  } finally {
    await t.close();
    await provider.close();
  }
});
