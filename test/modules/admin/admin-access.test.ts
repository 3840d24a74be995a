import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { call, type TestApp } from '../../helpers/app.ts';
import { createTestAppWithAdmin, signUp, uniqueEmail, type TestUser } from '../../helpers/factories.ts';

describe('operator API: access and accounts', () => {
  let t: TestApp;
  let admin: TestUser;
  let rider: TestUser;
  let driver: TestUser;
  before(async () => {
    ({ t, admin } = await createTestAppWithAdmin());
    rider = await signUp(t, { role: 'USER' });
    driver = await signUp(t, { role: 'DRIVER' });
  });
  after(() => t.close());

  test('every /admin operation of the OpenAPI document is 401 without a token and 403 for riders and drivers', async () => {
    const document = (await call(t.app, 'GET', '/openapi.json')).body as { paths: Record<string, Record<string, { tags?: string[] }>> };
    const operations = Object.entries(document.paths)
      .filter(([path]) => path.startsWith('/admin'))
      .flatMap(([path, methods]) => Object.keys(methods).map((method) => ({ method: method.toUpperCase(), path: path.replace(/\{[^}]+\}/g, '1') })));
    assert.ok(operations.length >= 3, `admin operations found: ${operations.length}`);
    for (const { method, path } of operations) {
      const body = method === 'GET' || method === 'DELETE' ? undefined : {};
      assert.equal((await call(t.app, method as 'GET', path, { body })).status, 401, `${method} ${path} without a token`);
      for (const user of [rider, driver]) {
        const reply = await call(t.app, method as 'GET', path, { token: user.token, body });
        assert.equal(reply.status, 403, `${method} ${path} as ${user.role}: ${JSON.stringify(reply.body)}`);
      }
    }
    for (const [path, methods] of Object.entries(document.paths)) {
      if (!path.startsWith('/admin')) continue;
      for (const [method, operation] of Object.entries(methods)) assert.deepEqual(operation.tags, ['admin'], `${method} ${path} is tagged admin`);
    }
  });

  test('an operator creates an account that can log in at once, with one audit entry', async () => {
    const email = uniqueEmail('onboarded');
    const created = await call(t.app, 'POST', '/admin/users', {
      token: admin.token,
      body: { name: '  Asha Driver ', email: `  ${email.toUpperCase()} `, password: 'a long password', role: 'DRIVER' },
    });
    assert.equal(created.status, 200, JSON.stringify(created.body));
    assert.deepEqual(created.body, { id: created.body.id, name: 'Asha Driver', email, role: 'DRIVER' });

    const login = await call(t.app, 'POST', '/auth/login', { body: { email, password: 'a long password' } });
    assert.equal(login.status, 200);
    assert.equal(login.body.role, 'DRIVER');

    const audit = await call(t.app, 'GET', `/admin/audit?targetType=user&targetId=${created.body.id}`, { token: admin.token });
    assert.equal(audit.status, 200);
    assert.equal(audit.body.items.length, 1);
    const [entry] = audit.body.items;
    assert.equal(entry.actorId, admin.id);
    assert.equal(entry.action, 'user.create');
    assert.deepEqual(entry.target, { type: 'user', id: String(created.body.id) });
    assert.equal(entry.before, null);
    assert.deepEqual(entry.after, created.body);
    assert.equal(typeof entry.requestId, 'string');
    assert.ok(!JSON.stringify(entry).includes('a long password'), 'no password in the trail');
  });

  test('an e-mail already taken is 409 and changes nothing; bad bodies are 400', async () => {
    const before = (await call(t.app, 'GET', '/admin/audit?action=user.create', { token: admin.token })).body.items.length;
    const taken = await call(t.app, 'POST', '/admin/users', { token: admin.token, body: { name: 'x', email: rider.email, password: 'another password', role: 'ADMIN' } });
    assert.equal(taken.status, 409);
    assert.equal(taken.body.code, 'EMAIL_TAKEN');
    assert.equal((await call(t.app, 'POST', '/auth/login', { body: { email: rider.email, password: rider.password } })).body.role, 'USER');
    for (const body of [{ name: 'x', email: 'not-an-email', password: 'long enough', role: 'USER' }, { name: 'x', email: uniqueEmail(), password: 'short', role: 'USER' }, { name: 'x', email: uniqueEmail(), password: 'long enough', role: 'GOD' }]) {
      assert.equal((await call(t.app, 'POST', '/admin/users', { token: admin.token, body })).status, 400, JSON.stringify(body));
    }
    assert.equal((await call(t.app, 'GET', '/admin/audit?action=user.create', { token: admin.token })).body.items.length, before);
  });

  test('the audit trail pages newest first', async () => {
    for (let i = 0; i < 3; i++) {
      assert.equal((await call(t.app, 'POST', '/admin/users', { token: admin.token, body: { name: `p${i}`, email: uniqueEmail('page'), password: 'long enough', role: 'USER' } })).status, 200);
    }
    const first = await call(t.app, 'GET', '/admin/audit?limit=2', { token: admin.token });
    assert.equal(first.body.items.length, 2);
    assert.ok(first.body.items[0].id > first.body.items[1].id);
    const second = await call(t.app, 'GET', `/admin/audit?limit=2&cursor=${first.body.nextCursor}`, { token: admin.token });
    assert.ok(second.body.items[0].id < first.body.items[1].id);
  });
});
