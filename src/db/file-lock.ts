import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { DatabaseSync } from 'node:sqlite';

/**
 * One running service per SQLite file: two would both lead dispatch and both expire offers, each
 * believing it is alone. The lock is SQLite's own exclusive lock on a small file beside the
 * database, held by a connection for the life of the process; the operating system lets go of it
 * when the process ends, however it ends (kill -9 included), so a crash never leaves a stale lock.
 * True once this process holds the lock, false when another one does.
 */
export function lockDatabaseFile(file: string): boolean {
  mkdirSync(dirname(file), { recursive: true });
  const lock = new DatabaseSync(`${file}.lock`);
  try {
    // No busy timeout (the default): a lock held elsewhere answers "database is locked" at once.
    lock.exec('PRAGMA locking_mode = EXCLUSIVE; BEGIN EXCLUSIVE;');
  } catch (error) {
    lock.close();
    if ((error as { errcode?: number }).errcode === SQLITE_BUSY) return false;
    throw error;
  }
  held.push(lock);
  return true;
}

const SQLITE_BUSY = 5;
// Referenced for the life of the process: a collected connection would close, and let go of its lock.
const held: DatabaseSync[] = [];
