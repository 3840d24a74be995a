import assert from 'node:assert/strict';
import { test } from 'node:test';
import { FailureSamples, formatFailures, mergeSamples, serviceWarnings } from '../../bench/lib/failures.ts';

test('failed answers are kept by status, code and message, with how often each came', () => {
  const samples = new FailureSamples();
  const tooMany = JSON.stringify({ statusCode: 409, error: 'Conflict', code: 'TOO_MANY_OPEN_RIDES', message: 'You have 100 open rides' });
  samples.answer(409, tooMany);
  samples.answer(409, tooMany);
  samples.answer(502, '<html>Bad Gateway</html>');
  samples.transport(Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' }));
  assert.deepEqual(samples.list(), [
    { status: 409, code: 'TOO_MANY_OPEN_RIDES', message: 'You have 100 open rides', count: 2 },
    { status: 502, code: undefined, message: '<html>Bad Gateway</html>', count: 1 },
    { code: 'ECONNRESET', message: 'read ECONNRESET', count: 1 },
  ]);
});

test('past a handful of kinds the rest are counted together, so every failure is still counted', () => {
  const samples = new FailureSamples();
  for (let i = 0; i < 20; i++) samples.answer(500, JSON.stringify({ code: 'INTERNAL', message: `failure ${i}` }));
  const kinds = samples.list();
  assert.ok(kinds.length < 20);
  assert.equal(kinds.reduce((sum, kind) => sum + kind.count, 0), 20);
  assert.ok(kinds.some((kind) => kind.message === 'other kinds of failure'));
});

test("windows' samples add up kind by kind", () => {
  const conflict = { status: 409, code: 'TOO_MANY_OPEN_RIDES', message: 'full' };
  const merged = mergeSamples([[{ ...conflict, count: 2 }], [{ ...conflict, count: 3 }, { message: 'request timed out', count: 1 }]]);
  assert.deepEqual(merged, [{ ...conflict, count: 5 }, { message: 'request timed out', count: 1 }]);
});

test("the service's log lines read as level, message and error, whatever it printed", () => {
  const output = [
    JSON.stringify({ level: 50, time: 1, msg: 'dispatch round failed', err: { type: 'Error', code: '57014', message: 'canceling statement due to statement timeout' } }),
    JSON.stringify({ level: 40, time: 2, msg: 'ride change not announced everywhere' }),
    'TypeError: boom',
    '',
    ...Array.from({ length: 12 }, (_, i) => JSON.stringify({ level: 40, msg: `warning ${i}` })),
  ].join('\n');
  const lines = serviceWarnings(output);
  assert.equal(lines[0], 'ERROR dispatch round failed — Error 57014: canceling statement due to statement timeout');
  assert.equal(lines[1], 'WARN ride change not announced everywhere');
  assert.equal(lines[2], 'TypeError: boom');
  assert.equal(lines.length, 11);
  assert.equal(lines.at(-1), '… and 5 more lines');
});

test('the report explains each row with failures or service warnings, and no other', () => {
  const text = formatFailures([
    { scenario: 'booking', mode: 'production', errors: 83, failures: { samples: [{ status: 409, code: 'TOO_MANY_OPEN_RIDES', message: 'full', count: 83 }], serviceLog: [] } },
    { scenario: 'status', mode: 'production', errors: 0 },
  ]);
  assert.match(text, /booking \(production\): 83 failed requests/);
  assert.match(text, /83 × 409 TOO_MANY_OPEN_RIDES: full/);
  assert.match(text, /nothing at warn or above/);
  assert.doesNotMatch(text, /status/);
  assert.equal(formatFailures([{ scenario: 'status', mode: 'embedded', errors: 0 }]), '');
});
