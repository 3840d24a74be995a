import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import packageJson from '../../package.json' with { type: 'json' };
import { operationId } from '../../src/platform/openapi.ts';
import { call, createTestApp, type TestApp } from '../helpers/app.ts';

describe('OpenAPI document', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp();
  });
  after(() => t.close());

  test('every operation has a unique operationId, and its security matches what the route enforces', async () => {
    const doc = (await call(t.app, 'GET', '/openapi.json')).body;
    const ids = new Set<string>();
    let operations = 0;
    for (const [path, methods] of Object.entries<Record<string, any>>(doc.paths)) {
      for (const [method, operation] of Object.entries<any>(methods)) {
        operations++;
        assert.match(operation.operationId ?? '', /^[a-z]+[A-Za-z0-9]*$/, `${method} ${path} has an operationId`);
        assert.ok(!ids.has(operation.operationId), `${operation.operationId} is unique`);
        ids.add(operation.operationId);
        assert.ok(Array.isArray(operation.security), `${method} ${path} declares its security`);
        // Without a token, a protected route answers 401 MISSING_TOKEN and a public one never does.
        const reply = await call(t.app, method.toUpperCase() as 'GET', path.replaceAll(/\{\w+\}/g, '1'));
        const refused = reply.status === 401 && reply.body?.code === 'MISSING_TOKEN';
        if (operation.security.length === 0) assert.ok(!refused, `${method} ${path} is documented public but wants a token`);
        else assert.deepEqual([operation.security, refused], [[{ bearerAuth: [] }], true], `${method} ${path}`);
      }
    }
    assert.ok(operations >= 30, `${operations} operations`);
    assert.equal(doc.paths['/rides/status/{rideId}'].get.operationId, 'getRidesStatusByRideId', 'derived from method and path');
    assert.deepEqual(doc.paths['/rides/requested'].get.responses['200'].headers, {
      'x-next-cursor': { schema: { type: 'string' }, description: 'Pass as `cursor` for the next page' },
    });
    assert.equal(doc.info.license.name, 'MIT');
    assert.equal(doc.info.version, packageJson.version, 'one version: /docs says what package.json and the start-up banner say');
    assert.ok(doc.servers.length > 0);
  });

  test('/docs and its files carry a CSP: the service\'s own scripts only, and no page may frame them', async () => {
    for (const url of ['/docs', '/docs/', '/docs/static/swagger-initializer.js']) {
      const reply = await t.app.inject({ url });
      assert.equal(reply.statusCode, 200, url);
      const policy = String(reply.headers['content-security-policy']);
      assert.match(policy, /(^|; )frame-ancestors 'none'(;|$)/, url);
      assert.match(policy, /(^|; )script-src 'self'(;|$)/, url);
      assert.match(policy, /(^|; )object-src 'none'(;|$)/, url);
    }
  });

  test('operationIds come from method and path, so they stay the same across runs and releases', () => {
    assert.equal(operationId('get', '/rides/status/{rideId}'), 'getRidesStatusByRideId');
    assert.equal(operationId('POST', '/rides/status/:rideId'), 'postRidesStatusByRideId');
    assert.equal(operationId('put', '/user-settings'), 'putUserSettings');
    assert.equal(operationId('post', '/notifications/mark-read/{notificationId}'), 'postNotificationsMarkReadByNotificationId');
  });
});
