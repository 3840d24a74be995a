import assert from 'node:assert/strict';
import { test } from 'node:test';
import { MemoryHub, REPLAY_BYTES, REPLAY_MESSAGES, replayAfter, type UserMessage } from '../../src/platform/realtime/hub.ts';
import { TestClock } from '../helpers/app.ts';

type Messages = { note: { n: number } };

test('the in-process hub keeps a user’s messages for replay once a connection of theirs has attached, not before', async () => {
  const clock = new TestClock();
  const hub = new MemoryHub<Messages>(clock);
  const start = clock.now();
  // Nobody has connected: these numbers reach no client, so no client can resume from them.
  assert.equal(hub.reaches(7), false);
  for (let n = 1; n <= 3; n++) await hub.send(7, 'note', { n });
  assert.equal(hub.reaches(7), false, 'senders may skip building messages for this user');
  const first = await hub.attach(7, () => {}, start);
  assert.equal(hub.reaches(7), true);
  assert.equal(first.seq, start + 3);
  assert.equal(first.resync, true, 'what was sent before anyone attached is not kept');
  first.detach();
  assert.equal(hub.reaches(7), true, 'detached, what follows is kept for the resume');

  // Once attached, what the user misses while away is kept and replayed.
  for (let n = 4; n <= 5; n++) await hub.send(7, 'note', { n });
  const heard: Array<UserMessage<Messages>> = [];
  const second = await hub.attach(7, (message) => heard.push(message), first.seq);
  assert.equal(second.resync, false);
  assert.deepEqual(
    second.replay.map((m) => [m.seq, m.data.n]),
    [
      [start + 4, 4],
      [start + 5, 5],
    ],
  );
  await hub.send(7, 'note', { n: 6 });
  assert.deepEqual(
    heard.map((m) => m.data.n),
    [6],
  );
  assert.equal(hub.delivery.delivered, 1, 'only messages someone was listening for count as delivered');
  second.detach();
  await hub.close();
});

test('a resume is replayed only when every number after it is kept; a hole (a message never stored) is a resync', () => {
  const kept = [{ seq: 5 }, { seq: 6 }, { seq: 8 }];
  assert.equal(replayAfter(kept, 8, 6), 'resync', '7 was never stored');
  assert.deepEqual(replayAfter(kept, 8, 7), [{ seq: 8 }]);
  assert.deepEqual(replayAfter(kept, 8, 8), []);
  assert.equal(replayAfter(kept, 9, 8), 'resync', '9 was handed out but is not kept');
  assert.equal(replayAfter(kept, 8, 3), 'resync', '4 is older than what is kept');
  assert.equal(replayAfter(kept, 8, 9), 'resync', 'a number never handed out');
  assert.deepEqual(replayAfter([{ seq: 5 }, { seq: 6 }], 6, 4), [{ seq: 5 }, { seq: 6 }]);
  assert.deepEqual(replayAfter([{ seq: 1 }, { seq: 2 }, { seq: 4 }, { seq: 5 }, { seq: 6 }], 6, 4), [{ seq: 5 }, { seq: 6 }], 'a hole before the resume point does not matter');
});

test('the in-process hub keeps at most REPLAY_MESSAGES of a user’s latest messages; a resume from before them is a resync', async () => {
  const clock = new TestClock();
  const hub = new MemoryHub<Messages>(clock);
  const first = await hub.attach(3, () => {});
  first.detach();
  for (let n = 1; n <= REPLAY_MESSAGES + 500; n++) await hub.send(3, 'note', { n });
  const tooOld = await hub.attach(3, () => {}, first.seq);
  assert.equal(tooOld.resync, true, 'the first messages are no longer kept');
  assert.deepEqual(tooOld.replay, []);
  tooOld.detach();
  const latest = tooOld.seq;
  const edge = await hub.attach(3, () => {}, latest - REPLAY_MESSAGES);
  assert.equal(edge.resync, false, 'the last REPLAY_MESSAGES are kept');
  assert.deepEqual(
    edge.replay.map((m) => m.data.n),
    Array.from({ length: REPLAY_MESSAGES }, (_, i) => 501 + i),
  );
  edge.detach();
  assert.equal((await hub.attach(3, () => {}, latest - REPLAY_MESSAGES - 1)).resync, true, 'one more is one too many');
  await hub.close();
});

test('the in-process hub keeps at most REPLAY_BYTES of a user’s messages, however few they are', async () => {
  const clock = new TestClock();
  const hub = new MemoryHub<{ note: { text: string } }>(clock);
  const first = await hub.attach(4, () => {});
  first.detach();
  const text = 'x'.repeat(10_000);
  const count = Math.ceil((2 * REPLAY_BYTES) / text.length);
  for (let n = 0; n < count; n++) await hub.send(4, 'note', { text });
  const all = await hub.attach(4, () => {}, first.seq);
  assert.equal(all.resync, true, `${count} messages of 10 kB are more than ${REPLAY_BYTES} bytes`);
  all.detach();
  const fitting = Math.floor(REPLAY_BYTES / (text.length + 100));
  const recent = await hub.attach(4, () => {}, all.seq - fitting);
  assert.equal(recent.resync, false, `the last ${fitting} are kept`);
  assert.equal(recent.replay.length, fitting);
  assert.ok(!('bytes' in recent.replay[0]) && !('sentAt' in recent.replay[0]), 'replayed as they were sent');
  await hub.close();
});
