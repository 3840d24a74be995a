import assert from 'node:assert/strict';
import type { Socket } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { ResumeClient, type ResyncReason } from '../../src/contract/realtime-client.ts';
import type { ServerMessage } from '../../src/contract/types.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { eventually } from '../helpers/dispatch.ts';
import { signUp, type TestUser } from '../helpers/factories.ts';
import { bookRide } from '../helpers/rides.ts';
import { realtimeUrl } from './socket-client.ts';

// The contract's one resume client (web apps, simulator) against the real channel: it resumes
// after a drop without missing or repeating a message, renews a refused token, and stops on the
// close codes after which connecting again cannot help.

interface Heard {
  messages: ServerMessage[];
  resyncs: ResyncReason[];
  closes: number[];
  problems: string[];
  gaps: string[];
}

function client(url: string, token: () => string, renew: (refused: string) => Promise<string>): { channel: ResumeClient; heard: Heard } {
  const heard: Heard = { messages: [], resyncs: [], closes: [], problems: [], gaps: [] };
  const channel = new ResumeClient(
    { url, token: async () => token(), renew, backoffMs: [50] },
    {
      message: (message) => heard.messages.push(message),
      resync: (reason) => heard.resyncs.push(reason),
      closed: (code) => heard.closes.push(code),
      problem: (code, text) => heard.problems.push(`${code} ${text}`),
      gap: (expected, got) => heard.gaps.push(`${expected}→${got}`),
    },
  );
  return { channel, heard };
}

const rideUpdates = (heard: Heard, rideId: number) => heard.messages.filter((m) => m.type === 'ride.updated' && m.data.id === rideId);

describe('the resume client (src/contract/realtime-client.ts)', () => {
  let t: TestApp;
  let url: string;
  let rider: TestUser;
  const sockets: Socket[] = [];
  before(async () => {
    t = await createTestApp();
    url = await realtimeUrl(t.app);
    rider = await signUp(t, { role: 'RIDER' });
    // Only the channel's sockets are TCP connections here (app.inject uses none).
    t.app.server.on('connection', (socket: Socket) => sockets.push(socket));
  });
  after(() => t.close());

  test('a first connection asks for a re-read, then hears the rider’s rides live', async () => {
    const { channel, heard } = client(url, () => rider.token, () => Promise.reject(new Error('not expected')));
    await channel.ready();
    try {
      assert.deepEqual(heard.resyncs, ['start']);
      const booked = await bookRide(t, rider);
      await eventually(async () => (rideUpdates(heard, booked.id).length > 0 ? true : undefined), 'the booking heard live');
      assert.equal(channel.lastSeq, heard.messages.at(-1)!.seq);
    } finally {
      channel.stop();
    }
  });

  test('after a dropped connection it resumes after the last seq: what came meanwhile arrives once, in order', async () => {
    const { channel, heard } = client(url, () => rider.token, () => Promise.reject(new Error('not expected')));
    await channel.ready();
    try {
      const first = await bookRide(t, rider);
      await eventually(async () => (rideUpdates(heard, first.id).length > 0 ? true : undefined), 'the first booking');
      // Cut every connection without a close frame (as a lost network does), and book while it is down.
      for (const socket of sockets.splice(0)) socket.destroy();
      await eventually(async () => (heard.closes.length > 0 ? true : undefined), 'the drop noticed');
      const second = await bookRide(t, rider);
      await eventually(async () => (rideUpdates(heard, second.id).length > 0 && channel.live ? true : undefined), 'the second booking, replayed');
      const seqs = heard.messages.map((m) => m.seq);
      assert.deepEqual(seqs, [...new Set(seqs)].sort((a, b) => a - b), 'each message once, in order');
      assert.deepEqual(heard.gaps, []);
      assert.deepEqual(heard.resyncs, ['start'], 'a replay, not a resync');
    } finally {
      channel.stop();
    }
  });

  test('a refused token (4401) is renewed once and the channel opens with the new one', async () => {
    let current = 'not-a-token';
    const renewed: string[] = [];
    const { channel, heard } = client(url, () => current, async (refused) => {
      renewed.push(refused);
      current = rider.token;
      return current;
    });
    await channel.ready();
    channel.stop();
    assert.deepEqual(renewed, ['not-a-token']);
    assert.deepEqual(heard.closes, [4401]);
  });

  test('a session that cannot be renewed stops the client and says why', async () => {
    const { channel, heard } = client(url, () => 'not-a-token', () => Promise.reject(new Error('refresh refused')));
    await assert.rejects(channel.ready(), /SIGNED_OUT refresh refused/);
    assert.deepEqual(heard.problems, ['SIGNED_OUT refresh refused']);
    assert.equal(channel.live, false);
  });

  test('an eleventh connection of the user closes the oldest with 4409, which does not reconnect by itself', async () => {
    const { channel: oldest, heard } = client(url, () => rider.token, () => Promise.reject(new Error('not expected')));
    await oldest.ready();
    const others = Array.from({ length: 10 }, () => client(url, () => rider.token, () => Promise.reject(new Error('not expected'))).channel);
    try {
      await Promise.all(others.map((other) => other.ready()));
      await eventually(async () => (heard.problems.length > 0 ? true : undefined), 'the oldest told to stop');
      assert.deepEqual(heard.closes, [4409]);
      assert.match(heard.problems[0], /^4409 /);
      assert.equal(oldest.live, false);
    } finally {
      for (const other of others) other.stop();
      oldest.stop();
    }
  });
});
