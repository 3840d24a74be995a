import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { openSqlite, SQLITE_SETTINGS } from '../../src/db/connect.ts';

test('an embedded database opens with durable commits and the checkpoint interval the service is tuned for', () => {
  const dir = mkdtempSync(join(tmpdir(), 'sqlite-settings-'));
  const database = openSqlite(join(dir, 'settings.db'));
  try {
    const read = (name: string) => Object.values(database.prepare(`PRAGMA ${name}`).get()!)[0];
    assert.equal(read('journal_mode'), 'wal');
    assert.equal(read('synchronous'), 2, 'FULL: a commit is on disk before it is acknowledged');
    assert.equal(read('foreign_keys'), 1);
    assert.equal(read('wal_autocheckpoint'), SQLITE_SETTINGS.wal_autocheckpoint);
    assert.equal(SQLITE_SETTINGS.wal_autocheckpoint, 10_000);
  } finally {
    database.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
