import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { en } from '../../src/platform/i18n/en.ts';
import { messages as hi } from '../../src/platform/i18n/hi.ts';
import { messages as kn } from '../../src/platform/i18n/kn.ts';
import { languageOfHeader, Texts } from '../../src/platform/i18n/texts.ts';
import { checkCatalogues } from '../helpers/catalogues.ts';

describe("the service's own texts", () => {
  const texts = new Texts('Asia/Kolkata');

  test('Hindi and Kannada have every English key, no other, with the same placeholders', () => {
    checkCatalogues('src/platform/i18n', en, { hi, kn });
  });

  test('every notification text is a pair, a title and a message', () => {
    const names = (suffix: string) => Object.keys(en).filter((key) => key.startsWith('notice.') && key.endsWith(suffix)).map((key) => key.slice(0, -suffix.length));
    assert.deepEqual(names('.title'), names('.message'));
    assert.deepEqual(Object.keys(en).filter((key) => key.startsWith('notice.') && !/\.(title|message)$/.test(key)), []);
  });

  test('rupees, times and plurals follow the language; times in the service zone', () => {
    const at = Date.parse('2026-12-01T04:00:00Z'); // 09:30 in Kolkata
    const values = { trip: 'known', pickup: 'MG Road', drop: 'Airport', rideId: '1204', minutes: 1, at };
    assert.equal(texts.render('en', 'notice.rideReminder.message', values), 'Your ride #1204 from MG Road to Airport is in 1 minute (1 Dec 2026, 9:30 am).');
    assert.equal(texts.render('en', 'notice.rideReminder.message', { ...values, minutes: 20 }), 'Your ride #1204 from MG Road to Airport is in 20 minutes (1 Dec 2026, 9:30 am).');
    assert.equal(texts.render('hi', 'notice.rideReminder.message', values), 'आपकी MG Road से Airport तक की सवारी #1204 1 मिनट में है (1 दिस॰ 2026, 9:30 am)।');
    assert.equal(texts.render('en', 'notice.paymentReceived.message', { amount: 1250.5, forRide: 'no' }), 'We received your payment of ₹1,250.50.');
    assert.equal(texts.render('kn', 'notice.paymentReceived.message', { amount: 180, forRide: 'yes', rideId: '7' }), 'ಸವಾರಿ #7 ಗಾಗಿ ನಿಮ್ಮ ₹180 ಪಾವತಿ ನಮಗೆ ತಲುಪಿದೆ.');
    // A document's last day stays that day whatever the service's zone.
    assert.equal(new Texts('America/Los_Angeles').render('en', 'notice.documentExpiring.message', { kind: 'insurance', expiresOn: Date.parse('2027-03-01') }).includes('valid through 1 March 2027'), true);
  });

  test("a browser's Accept-Language picks the most preferred language the service speaks, else English", () => {
    assert.equal(languageOfHeader('hi-IN,hi;q=0.9,en;q=0.8'), 'hi');
    assert.equal(languageOfHeader('fr-FR, en-GB;q=0.4, kn;q=0.7'), 'kn');
    assert.equal(languageOfHeader('kn;q=0, en;q=0.5'), 'en', 'q=0 means not this one');
    assert.equal(languageOfHeader('de, fr'), 'en');
    assert.equal(languageOfHeader(undefined), 'en');
    assert.equal(languageOfHeader(''), 'en');
  });
});
