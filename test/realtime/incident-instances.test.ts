import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { uniqueEmail } from '../helpers/factories.ts';
import { productionServicesMissing } from '../helpers/production.ts';
import { TRIP } from '../helpers/rides.ts';
import { http, signUpOn, startInstances, type Instances, type ServerProcess } from '../helpers/server-process.ts';
import { TestSocket } from './socket-client.ts';

// An SOS taken by one instance alarms the operator whose console is connected to another (decisions.md
// "Safety"), and stays open for both until one acknowledges it.

const missing = await productionServicesMissing();
const wsUrl = (server: ServerProcess) => `${server.url.replace('http://', 'ws://')}/realtime`;

describe('an SOS on two instances sharing PostgreSQL and Redis', { skip: missing }, () => {
  const operatorEmail = uniqueEmail('operator');
  let instances: Instances;
  let a: ServerProcess;
  let b: ServerProcess;

  before(async () => {
    instances = await startInstances(2, { ADMIN_EMAILS: operatorEmail });
    [a, b] = instances.servers;
  });
  after(() => instances?.stop());

  test("an SOS raised on A reaches the operator's socket on B, and stays open on both until acknowledged on B", async () => {
    const operator = await signUpOn(instances.smtp, [a, b], 'ADMIN', operatorEmail);
    const rider = await signUpOn(instances.smtp, [a, b], 'USER');
    const driver = await signUpOn(instances.smtp, [a, b], 'DRIVER');
    const booked = await http(`${a.url}/rides/book`, 'POST', TRIP, rider.token);
    assert.equal(booked.status, 200);
    assert.equal((await http(`${a.url}/rides/status/${booked.body.id}`, 'POST', { status: 'ACCEPTED', driverId: String(driver.id) }, driver.token)).status, 200);
    const desk = await TestSocket.connect(wsUrl(b), operator.token);

    const raised = await http(`${a.url}/rides/${booked.body.id}/sos`, 'POST', { note: 'help' }, rider.token);
    assert.equal(raised.status, 200, JSON.stringify(raised.body));
    const alarm = await desk.socket.waitFor((m) => m.type === 'incident.created' && m.data.id === raised.body.incidentId, 'incident.created on B');
    assert.equal(alarm.data.status, 'open');

    for (const server of [a, b]) {
      const open = await http(`${server.url}/admin/incidents?status=open`, 'GET', undefined, operator.token);
      assert.deepEqual(open.body.items.map((i: { id: number }) => i.id), [raised.body.incidentId], `open on ${server.url}`);
    }
    assert.equal((await http(`${b.url}/admin/incidents/${raised.body.incidentId}/ack`, 'POST', undefined, operator.token)).status, 200);
    await desk.socket.waitFor((m) => m.type === 'incident.updated' && m.data.status === 'acknowledged', 'incident.updated on B');
    assert.deepEqual((await http(`${a.url}/admin/incidents?status=open`, 'GET', undefined, operator.token)).body.items, []);
    await desk.socket.close();
  });
});
