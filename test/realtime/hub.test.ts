import assert from 'node:assert/strict';
import { test } from 'node:test';
import { MemoryHub, replayAfter, type UserMessage } from '../../src/platform/realtime/hub.ts';
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
});
