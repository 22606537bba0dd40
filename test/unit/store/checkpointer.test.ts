// The WAL checkpointer: while its thread runs, the main connection makes no checkpoints of its own
// and the WAL still stays small (the thread copies it into the database file and SQLite reuses it);
// when the thread is gone, the main connection checkpoints again; the store's data survive.
import { expect } from 'chai';
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startCheckpointer } from '../../../src/store/checkpointer.js';

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

describe('WAL checkpointer thread', function () {
  this.timeout(30_000);
  let dir: string;
  let db: Database.Database;
  let file: string;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'pesim-ckpt-'));
    file = join(dir, 'test.db');
    db = new Database(file);
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    db.exec('CREATE TABLE rows (id INTEGER PRIMARY KEY, payload TEXT)');
  });
  afterEach(() => {
    if (db.open) db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const insert = (count: number): void => {
    const statement = db.prepare('INSERT INTO rows (payload) VALUES (?)');
    for (let i = 0; i < count; i++) statement.run('x'.repeat(3000));
  };
  const walBytes = (): number => statSync(`${file}-wal`).size;

  /** 8 000 single-row commits in slices, pausing between them as a service does. */
  async function commitInSlices(): Promise<void> {
    for (let slice = 0; slice < 40; slice++) {
      insert(200);
      await sleep(50);
    }
  }

  it('turns off the main connection\'s automatic checkpoints and keeps the WAL small itself', async () => {
    const checkpointer = startCheckpointer(db, { file, synchronous: 'NORMAL', intervalMs: 10, busyTimeoutMs: 1000 });
    try {
      expect(db.pragma('wal_autocheckpoint', { simple: true })).to.equal(0);
      await commitInSlices();
      // Without checkpoints these commits make a WAL of about 100 MB (the next test); SQLite
      // reuses a checkpointed WAL from its start, so the file stays near what a few slices need
      // (≈ 7 MB on an idle machine; more when a loaded machine delays the thread's checkpoints).
      expect(walBytes()).to.be.lessThan(40 * 1024 * 1024);
      expect(db.prepare("SELECT count(*) AS n FROM rows").get()).to.deep.equal({ n: 8000 });
    } finally {
      checkpointer.stop();
    }
  });

  it('without the thread the same commits grow the WAL (the control of the test above)', async () => {
    db.pragma('wal_autocheckpoint = 0');
    await commitInSlices();
    expect(walBytes()).to.be.greaterThan(64 * 1024 * 1024);
  });

  it('gives the checkpoints back to the main connection when the thread ends', async () => {
    const checkpointer = startCheckpointer(db, { file, synchronous: 'NORMAL', intervalMs: 10, busyTimeoutMs: 1000 });
    expect(checkpointer.thread).to.not.equal(undefined);
    const exited = once(checkpointer.thread!, 'exit');
    await checkpointer.thread!.terminate();
    await exited;
    expect(db.pragma('wal_autocheckpoint', { simple: true })).to.equal(1000);
  });

  it('stops on request, and the database reads back whole after closing', async () => {
    const checkpointer = startCheckpointer(db, { file, synchronous: 'NORMAL', intervalMs: 10, busyTimeoutMs: 1000 });
    insert(500);
    const exited = once(checkpointer.thread!, 'exit');
    checkpointer.stop();
    checkpointer.stop(); // idempotent
    await exited;
    db.close();
    const again = new Database(file, { readonly: true });
    try {
      expect(again.prepare('SELECT count(*) AS n FROM rows').get()).to.deep.equal({ n: 500 });
    } finally {
      again.close();
    }
  });
});
