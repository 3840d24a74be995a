import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { call, createTestApp, type TestApp } from '../helpers/app.ts';
import { eventually } from '../helpers/dispatch.ts';
import { signUp } from '../helpers/factories.ts';
import { acceptedRide, assertError, assertOk, northOf, pickupOf } from '../helpers/rides.ts';
import { TestSocket, realtimeUrl } from './socket-client.ts';

// What one client may cost the realtime channel: every message it sends counts against one budget
// per connection, a flood is cut, a driver's positions are limited however many connections carry
// them, and a user holds a bounded number of connections. The test clock stands still unless a test
// moves it, so every message of a test falls in the same second.

const FLOODING = 4408;
const TOO_MANY_CONNECTIONS = 4409;

describe('budgets of the realtime channel', () => {
  let t: TestApp;
  let url: string;
  let limits: { messagesPerSecond: number; floodMessagesPerSecond: number; connectionsPerUser: number; positionsPerSecond: number };
  before(async () => {
    // A short close grace: a flooder's socket is no longer read, so it never answers the close frame.
    t = await createTestApp({ driverPositionsPerSecond: 5 }, { realtime: { closeGraceMs: 200 } });
    url = await realtimeUrl(t.app);
    limits = (await call(t.app, 'GET', '/realtime')).body;
    assert.deepEqual(
      [limits.messagesPerSecond, limits.floodMessagesPerSecond, limits.connectionsPerUser, limits.positionsPerSecond],
      [20, 100, 10, 5],
    );
  });
  after(() => t.close());

  test('every message counts, whatever its type: past the budget the rest of the second is dropped unread, and a connection that goes on is closed with 4408', async () => {
    const rider = await signUp(t);
    const { socket } = await TestSocket.connect(url, rider.token);
    let pongs = 0;
    socket.ws.on('pong', () => pongs++);
    // The auth message was the first of the second; WebSocket pings count too.
    for (let i = 0; i < 5; i++) socket.ws.ping();
    const kinds = ['{}', JSON.stringify({ type: 'subscribe' }), 'not json', JSON.stringify({ type: 'ping' })];
    const within = limits.messagesPerSecond - 6;
    for (let i = 0; i < within + 10; i++) socket.sendRaw(kinds[i % kinds.length]);
    // Replies come after `ready`.
    const replies = () => socket.received.slice(1);
    await socket.until(() => replies().length === within + 1, 'answers to the messages within the budget, and one refusal');
    assert.equal(pongs, 5);
    assert.equal(replies().filter((m) => m.type === 'pong').length, Math.floor(within / 4));
    assert.equal(replies().filter((m) => m.code === 'UNKNOWN_MESSAGE').length, within - Math.floor(within / 4));
    assert.equal(replies().at(-1)!.code, 'RATE_LIMITED');

    for (let i = 0; i < limits.floodMessagesPerSecond - limits.messagesPerSecond - 10 + 1; i++) socket.sendRaw(kinds[i % kinds.length]);
    assert.equal((await socket.closedBy('a flood')).code, FLOODING);
    assert.equal(replies().length, within + 1, 'nothing past the budget was answered');
    assert.equal(pongs, 5);
  });

  test('the budget is per second: the next second brings a whole one', async () => {
    const rider = await signUp(t);
    const { socket } = await TestSocket.connect(url, rider.token);
    // `ready` and a pong for each ping but the auth message's place in the first second.
    for (let i = 0; i < limits.messagesPerSecond - 1; i++) socket.send({ type: 'ping' });
    await socket.until(() => socket.received.length === limits.messagesPerSecond, 'pongs for the rest of the first second');
    t.clock.advance(1_000);
    for (let i = 0; i < limits.messagesPerSecond + 5; i++) socket.send({ type: 'ping' });
    await socket.until(() => socket.received.at(-1)?.type === 'error', 'the refusal in the second one');
    const second = socket.received.slice(limits.messagesPerSecond);
    assert.equal(second.filter((m) => m.type === 'pong').length, limits.messagesPerSecond);
    assert.equal(second.at(-1)!.code, 'RATE_LIMITED');
    assert.equal(socket.ws.readyState, socket.ws.OPEN);
    await socket.close();
  });

  test('a socket flooding pings is cut off while another client is served', async () => {
    const flooder = await signUp(t);
    const other = await signUp(t);
    const { socket } = await TestSocket.connect(url, flooder.token);
    const base = url.replace('ws://', 'http://').replace('/realtime', '');
    const frame = JSON.stringify({ type: 'ping' });
    const sent = 50_000;
    for (let i = 0; i < sent; i++) socket.sendRaw(frame);
    // Another user's requests, made while the frames are on their way.
    const answers = [];
    for (let i = 0; i < 10; i++) answers.push((await fetch(`${base}/rides/active`, { headers: { authorization: `Bearer ${other.token}` } })).status);
    assert.deepEqual(answers, Array(10).fill(200));
    assert.equal((await socket.closedBy('the flood')).code, FLOODING);
    const pongs = socket.received.filter((m) => m.type === 'pong').length;
    assert.equal(pongs, limits.messagesPerSecond - 1, `${pongs} of ${sent} pings answered`);
  });

  test("50 connections of one driver: the oldest beyond 10 are closed with 4409, and the driver's positions are limited across all of them and REST", async () => {
    const rider = await signUp(t, { role: 'RIDER' });
    const driver = await signUp(t, { role: 'DRIVER' });
    const { booked } = await acceptedRide(t, rider, driver);
    const { socket: riderSocket } = await TestSocket.connect(url, rider.token);
    const sockets: TestSocket[] = [];
    for (let i = 0; i < 50; i++) sockets.push((await TestSocket.connect(url, driver.token)).socket);
    const closed = await Promise.all(sockets.slice(0, 40).map((socket) => socket.closedBy('one connection too many')));
    assert.deepEqual(new Set(closed.map(({ code }) => code)), new Set([TOO_MANY_CONNECTIONS]));
    const open = sockets.slice(40);
    assert.ok(open.every((socket) => socket.ws.readyState === socket.ws.OPEN), 'the 10 newest stay');

    // Three positions from each connection: thirty sent, five taken.
    for (const [i, socket] of open.entries()) {
      for (let j = 0; j < 3; j++) socket.send({ type: 'position', ...northOf(pickupOf(booked), 2000 + 10 * (3 * i + j)) });
    }
    const refusals = () => open.reduce((sum, socket) => sum + socket.received.filter((m) => m.code === 'RATE_LIMITED').length, 0);
    await eventually(async () => (refusals() === 30 - limits.positionsPerSecond ? true : undefined), 'the refusals');
    const followed = () => riderSocket.messages.filter((m) => m.type === 'ride.position');
    await riderSocket.until(() => followed().length === limits.positionsPerSecond, 'the positions taken');
    assertError(await call(t.app, 'POST', `/rides/location/${booked.id}`, { token: driver.token, body: pickupOf(booked) }), 429, 'RATE_LIMITED');
    assertError(await call(t.app, 'PUT', '/drivers/me/location', { token: driver.token, body: pickupOf(booked) }), 429, 'RATE_LIMITED');

    t.clock.advance(1_000);
    assertOk(await call(t.app, 'POST', `/rides/location/${booked.id}`, { token: driver.token, body: northOf(pickupOf(booked), 1500) }), 'a position in the next second');
    await riderSocket.until(() => followed().length === limits.positionsPerSecond + 1, 'the next position');
    assert.equal(followed().length, limits.positionsPerSecond + 1, 'the rider heard only the positions taken');
    await Promise.all([...open, riderSocket].map((socket) => socket.close()));
  });
});
