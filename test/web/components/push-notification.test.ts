import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { notificationOf, openFromNotification, showPush } from '../../../web/src/push/notification.ts';

// What the apps' service worker does with a push message: the notification it shows, and where a click leads.

const scope = 'https://rides.example.com/app/';
const driverApp = `${scope}driver#/`;

describe('push notifications in the service worker', () => {
  test('an offer stays on screen, tagged so a second push of it replaces the first, and leads to the app', () => {
    const { title, options } = notificationOf({ kind: 'offer', title: 'New ride: ₹180', body: 'Pickup at MG Road', tag: 'offer-7', offerId: 7, rideId: 3, expiresAt: '2026-11-30T10:00:15.000Z' }, scope);
    assert.equal(title, 'New ride: ₹180');
    assert.deepEqual(options, { body: 'Pickup at MG Road', tag: 'offer-7', requireInteraction: true, data: { url: driverApp, expiresAt: '2026-11-30T10:00:15.000Z' } });
    assert.equal(notificationOf({ kind: 'ride', title: 'T', body: 'B', tag: 'ride-3' }, scope).options.requireInteraction, false);
    assert.equal(notificationOf({ kind: 'sos', title: 'SOS', body: 'B', tag: 'sos-1', incidentId: 1 }, scope).options.data.url, `${scope}ops#/incidents`);
    assert.equal(notificationOf({ kind: 'ride', title: 'T', body: 'B', tag: 'ride-3' }, scope).options.data.url, `${scope}#/`);
  });

  test('a message without a payload still shows a notification', async () => {
    const shown: string[] = [];
    await showPush({ scope, showNotification: async (title) => void shown.push(title) }, undefined);
    assert.deepEqual(shown, ['Ride update']);
  });

  test('a click focuses an open window of the app on the page, or opens one', async () => {
    const steps: string[] = [];
    const open = { url: `${scope}driver#/earnings`, focus: async () => steps.push('focus'), navigate: async (url: string) => steps.push(`navigate ${url}`) };
    const clients = (windows: (typeof open)[]) => ({ matchAll: async () => windows, openWindow: async (url: string) => steps.push(`open ${url}`) });
    await openFromNotification(clients([{ ...open, url: `${scope}#/` }, open]), { url: driverApp }, scope);
    assert.deepEqual(steps, [`navigate ${driverApp}`, 'focus'], "the driver app's window, not the rider app's");
    steps.length = 0;
    await openFromNotification(clients([{ ...open, url: `${scope}#/` }]), { url: driverApp }, scope);
    assert.deepEqual(steps, [`open ${driverApp}`], 'only the rider app open: the driver app opens');
  });
});
