import { StraightRouter } from '../../src/platform/routing/straight-router.ts';
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { productionServicesMissing } from '../helpers/production.ts';
import { http, signUpOn, startInstances, type Instances, type ServerProcess } from '../helpers/server-process.ts';
import { TRIP } from '../helpers/rides.ts';
import { TestSocket, type ServerMessage } from './socket-client.ts';

const missing = await productionServicesMissing();

const wsUrl = (server: ServerProcess) => `${server.url.replace('http://', 'ws://')}/realtime`;
const positionAt = (lat: number) => (m: ServerMessage) => m.type === 'ride.position' && m.data.lat === lat;

describe('the realtime channel on two instances sharing PostgreSQL and Redis', { skip: missing }, () => {
  let instances: Instances;
  let a: ServerProcess;
  let b: ServerProcess;

  /** A new rider and driver, and the rider's ride booked on A. */
  const bookedOnA = async () => {
    const rider = await signUpOn(instances.smtp, [a, b], 'RIDER');
    const driver = await signUpOn(instances.smtp, [a, b], 'DRIVER');
    const booked = await http(`${a.url}/rides/book`, 'POST', TRIP, rider.token);
    assert.equal(booked.status, 200);
    return { rider, driver, ride: booked.body as { id: number; pickupLat: number; pickupLon: number } };
  };
  const accept = async (server: ServerProcess, ride: { id: number }, driver: { id: number; token: string }) => {
    const reply = await http(`${server.url}/rides/status/${ride.id}`, 'POST', { status: 'ACCEPTED', driverId: String(driver.id) }, driver.token);
    assert.equal(reply.status, 200, JSON.stringify(reply.body));
  };

  before(async () => {
    instances = await startInstances(2);
    [a, b] = instances.servers;
  });

  after(() => instances?.stop());

  test('a ride accepted and a position reported on A reach the rider connected to B', async () => {
    const { rider, driver, ride } = await bookedOnA();
    const riderOnB = await TestSocket.connect(wsUrl(b), rider.token);
    const driverOnA = await TestSocket.connect(wsUrl(a), driver.token);
    await accept(a, ride, driver);
    await riderOnB.socket.waitFor((m) => m.type === 'ride.updated' && m.data.status === 'ACCEPTED', 'ACCEPTED on B');

    const overHttp = { lat: ride.pickupLat + 0.01, lon: ride.pickupLon };
    assert.equal((await http(`${a.url}/rides/location/${ride.id}`, 'POST', overHttp, driver.token)).status, 200);
    await riderOnB.socket.waitFor(positionAt(overHttp.lat), 'the position posted on A');
    const overSocket = { lat: ride.pickupLat + 0.005, lon: ride.pickupLon };
    driverOnA.socket.send({ type: 'position', ...overSocket });
    const live = await riderOnB.socket.waitFor(positionAt(overSocket.lat), 'the position sent over A’s socket');
    // With the router's minutes from there to the pickup (ride-etas.ts).
    const etaMinutes = Math.ceil((await new StraightRouter().route(overSocket, { lat: ride.pickupLat, lon: ride.pickupLon })).durationMinutes);
    assert.deepEqual({ ...live.data, at: undefined }, { rideId: ride.id, ...overSocket, at: undefined, etaMinutes });
    const seqs = riderOnB.socket.messages.map((m) => m.seq!);
    assert.deepEqual(seqs, seqs.map((_, i) => riderOnB.ready.seq! + 1 + i), 'one numbering across instances, no gap');
    await Promise.all([riderOnB.socket.close(), driverOnA.socket.close()]);
  });

  test('a client that dropped from B resumes on A with exactly what it missed', async () => {
    const { rider, driver, ride } = await bookedOnA();
    const witness = await TestSocket.connect(wsUrl(a), rider.token);
    const first = await TestSocket.connect(wsUrl(b), rider.token);
    await accept(b, ride, driver);
    await first.socket.waitFor((m) => m.type === 'ride.updated' && m.data.status === 'ACCEPTED', 'ACCEPTED on B');
    const lastSeen = first.socket.messages.at(-1)!.seq!;
    await first.socket.close();

    const missedLat = [0.009, 0.008, 0.007].map((d) => ride.pickupLat + d);
    for (const lat of missedLat) assert.equal((await http(`${b.url}/rides/location/${ride.id}`, 'POST', { lat, lon: ride.pickupLon }, driver.token)).status, 200);
    await witness.socket.waitFor(positionAt(missedLat[2]), 'the last missed position');
    const missed = witness.socket.messages.filter((m) => m.seq! > lastSeen);

    const resumed = await TestSocket.connect(wsUrl(a), rider.token, lastSeen);
    assert.deepEqual(await resumed.socket.waitForMessages(missed.length, 'the replay on A'), missed);
    assert.deepEqual(missed.filter((m) => m.type === 'ride.position').map((m) => m.data.lat), missedLat);
    await Promise.all([resumed.socket.close(), witness.socket.close()]);
  });

  test('SIGTERM closes the instance’s sockets with 1001, and the client resumes on the other without loss', async () => {
    const { rider, driver, ride } = await bookedOnA();
    await accept(a, ride, driver);
    const witness = await TestSocket.connect(wsUrl(b), rider.token);
    const onA = await TestSocket.connect(wsUrl(a), rider.token);
    const before = { lat: ride.pickupLat + 0.009, lon: ride.pickupLon };
    assert.equal((await http(`${b.url}/rides/location/${ride.id}`, 'POST', before, driver.token)).status, 200);
    await onA.socket.waitFor(positionAt(before.lat), 'a position before the stop');
    const lastSeen = onA.socket.messages.at(-1)!.seq!;

    a.child.kill('SIGTERM');
    assert.equal((await onA.socket.closedBy('SIGTERM')).code, 1001);
    assert.equal(await a.exited, 0, a.output());

    const during = { lat: ride.pickupLat + 0.008, lon: ride.pickupLon };
    assert.equal((await http(`${b.url}/rides/location/${ride.id}`, 'POST', during, driver.token)).status, 200);
    await witness.socket.waitFor(positionAt(during.lat), 'the position while reconnecting');
    const resumed = await TestSocket.connect(wsUrl(b), rider.token, lastSeen);
    const missed = witness.socket.messages.filter((m) => m.seq! > lastSeen);
    assert.deepEqual(await resumed.socket.waitForMessages(missed.length, 'the replay on B'), missed);
    await Promise.all([resumed.socket.close(), witness.socket.close()]);
  });
});
