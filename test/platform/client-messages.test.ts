import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { Type, type Static } from 'typebox';
import type { AuthUser } from '../../src/platform/auth/roles.ts';
import { ClientMessageRegistry } from '../../src/platform/realtime/client-messages.ts';

// The registry the realtime channel looks client messages up in (each module registers its own):
// what it hands to a module, and what it refuses before any module sees it.

const Wave = Type.Object({ times: Type.Integer({ minimum: 1, maximum: 3 }), note: Type.Optional(Type.String({ maxLength: 10 })) });
type Messages = { wave: Static<typeof Wave> };

const driver: AuthUser = { id: 7, role: 'DRIVER' };
const rider: AuthUser = { id: 8, role: 'RIDER' };

function registryWithWave() {
  const registry = new ClientMessageRegistry<Messages>();
  const handled: Array<{ user: AuthUser; message: Static<typeof Wave> }> = [];
  registry.register('wave', { schema: Wave, roles: ['DRIVER', 'ADMIN'], handle: async (user, message) => void handled.push({ user, message }) });
  return { registry, handled };
}

/** The AppError a dispatch was refused with: its code and message. */
async function refusal(promise: Promise<void>): Promise<{ code: string; statusCode: number; message: string }> {
  try {
    await promise;
  } catch (error) {
    return error as { code: string; statusCode: number; message: string };
  }
  assert.fail('the message was taken');
}

describe('client messages of the realtime channel', () => {
  test("a module's registered type reaches its handler with the sender and the message's fields", async () => {
    const { registry, handled } = registryWithWave();
    await registry.dispatch(driver, { type: 'wave', times: 2, note: 'hi' });
    assert.deepEqual(handled, [{ user: driver, message: { times: 2, note: 'hi' } }]);
    assert.deepEqual(registry.types, ['wave']);
    assert.deepEqual(registry.rolesOf('wave'), ['DRIVER', 'ADMIN']);
  });

  test('a type no module registered, a message without a type and no JSON object at all are UNKNOWN_MESSAGE, naming what is taken', async () => {
    const { registry, handled } = registryWithWave();
    for (const message of [{ type: 'subscribe' }, { times: 2 }, { type: 42 }, undefined]) {
      const refused = await refusal(registry.dispatch(driver, message));
      assert.equal(refused.code, 'UNKNOWN_MESSAGE', JSON.stringify(message));
      assert.equal(refused.statusCode, 400);
      assert.match(refused.message, /"ping", "wave"/);
    }
    assert.deepEqual(handled, []);
  });

  test('a role the registration does not name is FORBIDDEN, before the fields are even read', async () => {
    const { registry, handled } = registryWithWave();
    const refused = await refusal(registry.dispatch(rider, { type: 'wave', times: 'not even a number' }));
    assert.equal(refused.code, 'FORBIDDEN');
    assert.equal(refused.statusCode, 403);
    assert.match(refused.message, /DRIVER or ADMIN/);
    assert.deepEqual(handled, []);
  });

  test('a message its schema refuses is VALIDATION_FAILED naming the field at fault, and never reaches the handler', async () => {
    const { registry, handled } = registryWithWave();
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [{ type: 'wave', times: 4 }, /^wave\.times must be <= 3$/],
      [{ type: 'wave', times: '2' }, /^wave\.times must be integer$/],
      [{ type: 'wave', times: 1, note: 'far too long a note' }, /^wave\.note /],
      [{ type: 'wave' }, /^wave must have required properties times$/],
    ];
    for (const [message, explained] of cases) {
      const refused = await refusal(registry.dispatch(driver, message));
      assert.equal(refused.code, 'VALIDATION_FAILED', JSON.stringify(message));
      assert.equal(refused.statusCode, 400);
      assert.match(refused.message, explained);
    }
    assert.deepEqual(handled, []);
  });

  test("what the handler refuses reaches the channel as the handler's own error", async () => {
    const registry = new ClientMessageRegistry<Messages>();
    const busy = Object.assign(new Error('not now'), { statusCode: 429, code: 'RATE_LIMITED' });
    registry.register('wave', { schema: Wave, roles: ['DRIVER'], handle: async () => Promise.reject(busy) });
    assert.equal(await refusal(registry.dispatch(driver, { type: 'wave', times: 1 })), busy);
  });

  test("the channel's own messages cannot be registered, a type cannot be registered twice, and a registration names a role", () => {
    const registry = new ClientMessageRegistry<{ ping: object; auth: object; wave: Static<typeof Wave> }>();
    assert.throws(() => registry.register('ping', { schema: Type.Object({}), roles: ['DRIVER'], handle: async () => {} }), /channel's own/);
    assert.throws(() => registry.register('auth', { schema: Type.Object({}), roles: ['DRIVER'], handle: async () => {} }), /channel's own/);
    assert.throws(() => registry.register('wave', { schema: Wave, roles: [], handle: async () => {} }), /names no role/);
    registry.register('wave', { schema: Wave, roles: ['DRIVER'], handle: async () => {} });
    assert.throws(() => registry.register('wave', { schema: Wave, roles: ['DRIVER'], handle: async () => {} }), /registered twice/);
  });
});
