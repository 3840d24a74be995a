import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Role } from '../../../src/platform/auth/roles.ts';
import { productionServicesMissing } from '../../helpers/production.ts';
import { http, signUpOn, startInstances, type Instances, type ServerProcess } from '../../helpers/server-process.ts';

const missing = await productionServicesMissing();
const ADMIN_EMAIL = 'two-instance-operator@example.com';

describe('token revocation on two instances sharing PostgreSQL and Redis', { skip: missing }, () => {
  let instances: Instances;
  let a: ServerProcess;
  let b: ServerProcess;

  const signUp = (role: Role, email?: string) => signUpOn(instances.smtp, [a, b], role, email);

  /** How long after `since` each instance first refused the token (polling every 10 ms, for at most 2 s). */
  const refusedAfter = async (token: string, since: number) =>
    Promise.all([a, b].map(async (server) => {
      while (Date.now() - since < 2000) {
        const reply = await http(`${server.url}/user-settings`, 'GET', undefined, token);
        if (reply.status === 401) return Date.now() - since;
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      return Infinity;
    }));

  before(async () => {
    instances = await startInstances(2, { ADMIN_EMAILS: ADMIN_EMAIL });
    [a, b] = instances.servers;
  });

  after(() => instances?.stop());

  test('a user blocked on A is refused on both instances within a second, cached tokens included', async () => {
    const admin = await signUp('ADMIN', ADMIN_EMAIL);
    const user = await signUp('DRIVER');
    for (const server of [a, b]) assert.equal((await http(`${server.url}/user-settings`, 'GET', undefined, user.token)).status, 200);
    const block = await http(`${a.url}/admin/users/${user.id}/block`, 'POST', { reason: 'fraud' }, admin.token);
    assert.equal(block.status, 200);
    const [onA, onB] = await refusedAfter(user.token, Date.now());
    assert.ok(onA < 1000 && onB < 1000, `refused after ${onA} ms on A and ${onB} ms on B`);
  });

  test('an erasure on B ends the tokens on A as well', async () => {
    const admin = await signUp('ADMIN', ADMIN_EMAIL);
    const user = await signUp('RIDER');
    assert.equal((await http(`${a.url}/user-settings`, 'GET', undefined, user.token)).status, 200);
    assert.equal((await http(`${b.url}/admin/users/${user.id}`, 'DELETE', undefined, admin.token)).status, 200);
    const [onA, onB] = await refusedAfter(user.token, Date.now());
    assert.ok(onA < 1000 && onB < 1000, `refused after ${onA} ms on A and ${onB} ms on B`);
  });
});
