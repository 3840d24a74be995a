import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { call, createTestApp, type TestApp } from '../../helpers/app.ts';
import { signUp } from '../../helpers/factories.ts';

describe('user settings', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp();
  });
  after(() => t.close());

  test('a new user gets exactly the documented defaults', async () => {
    const user = await signUp(t);
    const reply = await call(t.app, 'GET', '/user-settings', { token: user.token });
    assert.equal(reply.status, 200);
    const { id, createdAt, updatedAt, ...rest } = reply.body;
    assert.ok(Number.isInteger(id));
    assert.ok(!Number.isNaN(Date.parse(createdAt)));
    assert.ok(!Number.isNaN(Date.parse(updatedAt)));
    assert.deepEqual(rest, {
      userId: user.id,
      tripSharingDefault: true,
      hidePhoneNumber: false,
      emergencyContact: '',
      defaultPaymentMethod: 'upi',
      autoTipEnabled: false,
      invoiceEmailEnabled: true,
      mapStyle: 'standard',
      avoidTolls: false,
      avoidHighways: false,
      navigationVoiceLanguage: 'en',
      preferredVehicleType: 'mini',
      acPreference: 'any',
      quietRide: false,
      language: null,
      deleteAccountRequested: false,
    });
    const again = await call(t.app, 'GET', '/user-settings', { token: user.token });
    assert.deepEqual(again.body, reply.body, 'reading does not change anything');
  });

  test('a partial update changes only the given fields and moves updatedAt', async () => {
    const user = await signUp(t);
    const before = (await call(t.app, 'GET', '/user-settings', { token: user.token })).body;
    const reply = await call(t.app, 'PUT', '/user-settings', {
      token: user.token,
      body: { mapStyle: 'satellite', quietRide: true, emergencyContact: '+91 98765 43210', navigationVoiceLanguage: 'hi-IN' },
    });
    assert.equal(reply.status, 200);
    assert.deepEqual(reply.body, {
      ...before,
      mapStyle: 'satellite',
      quietRide: true,
      emergencyContact: '+91 98765 43210',
      navigationVoiceLanguage: 'hi-IN',
      updatedAt: reply.body.updatedAt,
    });
    assert.ok(Date.parse(reply.body.updatedAt) > Date.parse(before.updatedAt));
    assert.equal(reply.body.createdAt, before.createdAt);
    assert.deepEqual((await call(t.app, 'GET', '/user-settings', { token: user.token })).body, reply.body, 'stored');

    const second = await call(t.app, 'PUT', '/user-settings', { token: user.token, body: { avoidTolls: true } });
    assert.equal(second.body.mapStyle, 'satellite', 'earlier change kept');
    assert.equal(second.body.avoidTolls, true);
    assert.ok(Date.parse(second.body.updatedAt) > Date.parse(reply.body.updatedAt));
  });

  test('every boolean and every allowed value can be set', async () => {
    const user = await signUp(t);
    const everything = {
      tripSharingDefault: false,
      hidePhoneNumber: true,
      emergencyContact: 'Mom',
      defaultPaymentMethod: 'card',
      autoTipEnabled: true,
      invoiceEmailEnabled: false,
      mapStyle: 'satellite',
      avoidTolls: true,
      avoidHighways: true,
      navigationVoiceLanguage: 'en',
      preferredVehicleType: 'suv',
      acPreference: 'non_ac',
      quietRide: true,
      language: 'kn',
      deleteAccountRequested: true,
    };
    const reply = await call(t.app, 'PUT', '/user-settings', { token: user.token, body: everything });
    assert.equal(reply.status, 200);
    for (const [key, value] of Object.entries(everything)) assert.equal(reply.body[key], value, key);
  });

  test('a chosen language is kept, and null goes back to the browser\'s', async () => {
    const user = await signUp(t);
    const hindi = await call(t.app, 'PUT', '/user-settings', { token: user.token, body: { language: 'hi' } });
    assert.equal(hindi.status, 200);
    assert.equal((await call(t.app, 'GET', '/user-settings', { token: user.token })).body.language, 'hi');
    const cleared = await call(t.app, 'PUT', '/user-settings', { token: user.token, body: { language: null } });
    assert.equal(cleared.status, 200);
    assert.equal((await call(t.app, 'GET', '/user-settings', { token: user.token })).body.language, null);
  });

  test('an update that changes nothing leaves updatedAt alone', async () => {
    const user = await signUp(t);
    const before = (await call(t.app, 'GET', '/user-settings', { token: user.token })).body;
    const same = await call(t.app, 'PUT', '/user-settings', { token: user.token, body: { mapStyle: 'standard' } });
    assert.equal(same.body.updatedAt, before.updatedAt);
    const empty = await call(t.app, 'PUT', '/user-settings', { token: user.token, body: {} });
    assert.equal(empty.status, 200);
    assert.equal(empty.body.updatedAt, before.updatedAt);
  });

  test('echoed read-only fields are ignored', async () => {
    const user = await signUp(t);
    const current = (await call(t.app, 'GET', '/user-settings', { token: user.token })).body;
    const reply = await call(t.app, 'PUT', '/user-settings', {
      token: user.token,
      body: { ...current, id: 999, userId: 999, createdAt: 'yesterday', quietRide: true },
    });
    assert.equal(reply.status, 200);
    assert.equal(reply.body.id, current.id);
    assert.equal(reply.body.userId, user.id);
    assert.equal(reply.body.createdAt, current.createdAt);
  });

  const invalid: Array<[string, unknown]> = [
    ['tripSharingDefault', 'true'],
    ['hidePhoneNumber', 1],
    ['autoTipEnabled', null],
    ['invoiceEmailEnabled', 'no'],
    ['avoidTolls', 0],
    ['avoidHighways', []],
    ['quietRide', 'yes'],
    ['deleteAccountRequested', {}],
    ['emergencyContact', 12345],
    ['emergencyContact', 'x'.repeat(41)],
    ['defaultPaymentMethod', 'bitcoin'],
    ['defaultPaymentMethod', 5],
    ['mapStyle', 'neon'],
    ['navigationVoiceLanguage', 'en-US-x-very-long'],
    ['navigationVoiceLanguage', 'english!'],
    ['navigationVoiceLanguage', true],
    ['preferredVehicleType', 'rocket'],
    ['acPreference', 'cold'],
    ['acPreference', ''],
    ['language', 'fr'],
    ['language', 'HI'],
    ['language', 'hi-IN'],
    ['language', ''],
    ['language', 1],
  ];
  for (const [field, value] of invalid) {
    test(`${field} = ${JSON.stringify(value)} is a 400 and changes nothing`, async () => {
      const user = await signUp(t);
      const before = (await call(t.app, 'GET', '/user-settings', { token: user.token })).body;
      const reply = await call(t.app, 'PUT', '/user-settings', { token: user.token, body: { quietRide: true, [field]: value } });
      assert.equal(reply.status, 400);
      assert.equal(reply.body.code, 'VALIDATION_FAILED');
      assert.match(reply.body.message, new RegExp(field));
      assert.deepEqual((await call(t.app, 'GET', '/user-settings', { token: user.token })).body, before);
    });
  }

  test('the longest allowed strings are accepted', async () => {
    const user = await signUp(t);
    const reply = await call(t.app, 'PUT', '/user-settings', {
      token: user.token,
      body: { emergencyContact: 'x'.repeat(40), navigationVoiceLanguage: 'zh-Hant-TW' },
    });
    assert.equal(reply.status, 200);
  });

  test('a body that is not an object is a 400', async () => {
    const user = await signUp(t);
    for (const body of [[1, 2], 'text', 42, null]) {
      const reply = await call(t.app, 'PUT', '/user-settings', {
        token: user.token,
        body: JSON.stringify(body),
        headers: { 'content-type': 'application/json' },
      });
      assert.equal(reply.status, 400, JSON.stringify(body));
    }
    const noBody = await call(t.app, 'PUT', '/user-settings', { token: user.token });
    assert.equal(noBody.status, 400);
  });

  test('each user sees only their own settings', async () => {
    const a = await signUp(t);
    const b = await signUp(t);
    await call(t.app, 'PUT', '/user-settings', { token: a.token, body: { mapStyle: 'dark' } });
    const bs = await call(t.app, 'GET', '/user-settings', { token: b.token });
    assert.equal(bs.body.userId, b.id);
    assert.equal(bs.body.mapStyle, 'standard');
  });

  test('settings need a token', async () => {
    assert.equal((await call(t.app, 'GET', '/user-settings')).status, 401);
    assert.equal((await call(t.app, 'PUT', '/user-settings', { body: { quietRide: true } })).status, 401);
  });
});
