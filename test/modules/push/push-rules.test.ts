import assert from 'node:assert/strict';
import { createECDH } from 'node:crypto';
import { describe, test } from 'node:test';
import { endpointProblem, keysProblem, pushServiceOf } from '../../../src/modules/push/push-endpoints.ts';
import { offerMessage, rideChangeMessage, sosMessage } from '../../../src/modules/push/push-messages.ts';
import type { Notification, Offer } from '../../../src/contract/types.ts';
import { Texts } from '../../../src/platform/i18n/texts.ts';
import { PUSH_SERVICE_HOSTS } from '../../../src/platform/push/push-config.ts';

// The push module's pure rules: which endpoints and keys are taken, and what each message says and how urgently.

const rules = { serviceHosts: PUSH_SERVICE_HOSTS.split(','), allowLocalHttp: false };

describe('push endpoints', () => {
  test("the browsers' push services are taken, subdomains only where the name starts with a dot", () => {
    for (const endpoint of ['https://fcm.googleapis.com/fcm/send/x', 'https://updates.push.services.mozilla.com/wpush/v2/x', 'https://web.push.apple.com/x', 'https://wns2-pn1p.notify.windows.com/w/?token=x']) {
      assert.equal(endpointProblem(endpoint, rules), null, endpoint);
    }
    assert.match(endpointProblem('https://evil.fcm.googleapis.com.example.org/x', rules)!, /not at a known push service/);
    assert.match(endpointProblem('https://notify.windows.com.evil.example/x', rules)!, /not at a known push service/);
    assert.equal(endpointProblem('https://anything.example/x', { ...rules, serviceHosts: '*' }), null);
  });

  test('http only to this machine, and only when PUSH_ALLOW_LOCAL_HTTP says so', () => {
    assert.match(endpointProblem('http://127.0.0.1:9000/push/x', rules)!, /https/);
    assert.equal(endpointProblem('http://127.0.0.1:9000/push/x', { ...rules, allowLocalHttp: true }), null);
    assert.match(endpointProblem('http://192.168.1.4/push/x', { ...rules, allowLocalHttp: true })!, /https/);
    assert.match(endpointProblem('https://u:p@fcm.googleapis.com/x', rules)!, /credentials/);
    assert.match(endpointProblem('not a url', rules)!, /not a URL/);
  });

  test('keys must be a P-256 point and a 16-byte secret', () => {
    const ecdh = createECDH('prime256v1');
    ecdh.generateKeys();
    const p256dh = ecdh.getPublicKey().toString('base64url');
    assert.equal(keysProblem({ p256dh, auth: Buffer.alloc(16, 1).toString('base64url') }), null);
    assert.match(keysProblem({ p256dh: ecdh.getPublicKey(null, 'compressed').toString('base64url'), auth: 'AAAAAAAAAAAAAAAAAAAAAA' })!, /uncompressed/);
    assert.match(keysProblem({ p256dh: `BA${'A'.repeat(85)}`, auth: 'AAAAAAAAAAAAAAAAAAAAAA' })!, /not a point/);
    assert.match(keysProblem({ p256dh, auth: 'AAAA' })!, /16 bytes/);
  });

  test('a log names the push service, never the path that lets anyone post', () => {
    assert.equal(pushServiceOf('https://fcm.googleapis.com/fcm/send/secret-token'), 'https://fcm.googleapis.com');
  });
});

describe('push messages', () => {
  const now = Date.parse('2026-11-30T10:00:00Z');
  const texts = new Texts('Asia/Kolkata');
  const english = texts.in('en');
  const offer = { offerId: 7, rideId: 3, fare: 180, pickupLocation: 'MG Road', pickupDistanceKm: 1.2, pickupEtaMinutes: 4, expiresAt: '2026-11-30T10:00:15.000Z' } as Offer;

  test('an offer is urgent and lives as long as the offer', () => {
    const message = offerMessage(offer, now, english);
    assert.deepEqual(message.options, { ttlSeconds: 15, urgency: 'high', topic: 'offer' });
    assert.deepEqual([message.payload.kind, message.payload.offerId, message.payload.title], ['offer', 7, 'New ride: ₹180']);
    assert.equal(message.payload.body, 'Pickup at MG Road, 1.2 km away (4 min). Open the app to accept.');
    assert.equal(offerMessage(offer, now + 60_000, english).options.ttlSeconds, 1, 'never a TTL of 0 or less');
  });

  test('an offer is written in the words it is given: Kannada, with or without a pickup name', () => {
    const kannada = texts.in('kn');
    assert.deepEqual(offerMessage(offer, now, kannada).payload, {
      ...offerMessage(offer, now, english).payload,
      title: 'ಹೊಸ ಸವಾರಿ: ₹180',
      body: 'ಪಿಕಪ್ MG Road ನಲ್ಲಿ, 1.2 ಕಿ.ಮೀ ದೂರ (4 ನಿಮಿಷ). ಒಪ್ಪಿಕೊಳ್ಳಲು ಆ್ಯಪ್ ತೆರೆಯಿರಿ.',
    });
    assert.equal(offerMessage({ ...offer, pickupLocation: null }, now, kannada).payload.body, 'ಪಿಕಪ್, 1.2 ಕಿ.ಮೀ ದೂರ (4 ನಿಮಿಷ). ಒಪ್ಪಿಕೊಳ್ಳಲು ಆ್ಯಪ್ ತೆರೆಯಿರಿ.');
  });

  test("the ride's steps are pushed, other notifications are not", () => {
    const note = (eventType: Notification['eventType']) => ({ id: 1, userId: 2, rideId: 3, title: 'T', message: 'M', eventType }) as Notification;
    assert.equal(rideChangeMessage(note('RIDE_ACCEPTED'))?.options.urgency, 'high');
    assert.equal(rideChangeMessage(note('RIDE_COMPLETED'))?.options.urgency, 'normal');
    assert.equal(rideChangeMessage(note('RIDE_ACCEPTED'))?.options.topic, 'ride-3');
    assert.equal(rideChangeMessage(note('RIDE_REQUESTED')), null);
    assert.equal(rideChangeMessage({ ...note('RIDE_ACCEPTED'), rideId: null }), null);
  });

  test('an SOS names the ride and the incident, urgently', () => {
    const message = sosMessage({ incidentId: 9, rideId: 3, party: 'driver' }, english);
    assert.deepEqual([message.payload.incidentId, message.payload.rideId, message.options.urgency], [9, 3, 'high']);
    assert.equal(message.payload.title, 'SOS on ride #3');
    assert.match(message.payload.body, /driver pressed SOS/);
    assert.equal(sosMessage({ incidentId: 9, rideId: 3, party: 'rider' }, texts.in('hi')).payload.body, 'राइडर ने SOS दबाया। इसे स्वीकार करने के लिए इंसिडेंट डेस्क खोलें।');
  });
});
