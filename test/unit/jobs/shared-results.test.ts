// The shared results folder's pieces (src/jobs/executors/bullmq/shared-results.ts): its identity is
// made once and read by everyone after (also through another path to the same folder), a folder
// that cannot be used is refused naming the setting, a result is moved by rename or, across file
// systems, by copy, and a restarted service removes only its own earlier files.
import { expect } from 'chai';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { adoptSharedResult, IDENTITY_FILE, removeLeftResults, sharedFolderIdentity, sharedResultName } from '../../../src/jobs/executors/bullmq/shared-results.js';

describe('jobs: the shared results folder', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'pesim-shared-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('makes the folder and its identity once; later users, by any path, read the same one', () => {
    const folder = join(dir, 'results');
    const identity = sharedFolderIdentity(folder, 'SETTING');
    expect(identity).to.match(/^[0-9a-f]{24}$/);
    expect(readFileSync(join(folder, IDENTITY_FILE), 'utf8').trim()).to.equal(identity);
    expect(sharedFolderIdentity(folder, 'SETTING')).to.equal(identity);
    symlinkSync(folder, join(dir, 'mounted-elsewhere'));
    expect(sharedFolderIdentity(join(dir, 'mounted-elsewhere'), 'SETTING')).to.equal(identity);
    // Another folder is another identity; the probe file of the write check is gone.
    expect(sharedFolderIdentity(join(dir, 'other'), 'SETTING')).to.not.equal(identity);
    expect(readdirSync(folder)).to.deep.equal([IDENTITY_FILE]);
  });

  it('refuses a folder it cannot make or write, or a damaged identity, naming the setting and the folder', () => {
    writeFileSync(join(dir, 'a-file'), '');
    expect(() => sharedFolderIdentity(join(dir, 'a-file', 'results'), '--shared-results')).to.throw(`--shared-results: the shared results folder ${join(dir, 'a-file', 'results')} cannot be used`);
    const damaged = join(dir, 'damaged');
    mkdirSync(damaged);
    writeFileSync(join(damaged, IDENTITY_FILE), 'not an identity\n');
    expect(() => sharedFolderIdentity(damaged, 'S')).to.throw('does not hold a folder identity');
    if (process.getuid?.() === 0) return; // root writes into read-only folders
    const readOnly = join(dir, 'read-only');
    sharedFolderIdentity(readOnly, 'S');
    chmodSync(readOnly, 0o555);
    try {
      expect(() => sharedFolderIdentity(readOnly, 'S')).to.throw('S: the shared results folder');
    } finally {
      chmodSync(readOnly, 0o755);
    }
  });

  it('moves a result into place by rename, replacing an older file there', () => {
    const source = join(dir, sharedResultName('svc.task.1', '.parquet'));
    const target = join(dir, 'target.parquet');
    writeFileSync(source, 'new result');
    writeFileSync(target, 'old');
    adoptSharedResult(source, target, false);
    expect(readFileSync(target, 'utf8')).to.equal('new result');
    expect(existsSync(source)).to.equal(false);
    expect(() => adoptSharedResult(source, target, false)).to.throw('ENOENT');
  });

  it('copies a result across file systems, leaving no temporary file, and removes the shared one', function () {
    const other = '/dev/shm';
    if (!existsSync(other) || statSync(other).dev === statSync(dir).dev) this.skip(); // needs a second file system
    const source = join(dir, 'svc.task.2.parquet');
    const targetDir = mkdtempSync(join(other, 'pesim-adopt-'));
    try {
      writeFileSync(source, Buffer.alloc(300_000, 7));
      const target = join(targetDir, 'result.parquet');
      adoptSharedResult(source, target, true);
      expect(readFileSync(target).equals(Buffer.alloc(300_000, 7))).to.equal(true);
      expect(existsSync(source)).to.equal(false);
      expect(readdirSync(targetDir)).to.deep.equal(['result.parquet']);
    } finally {
      rmSync(targetDir, { recursive: true, force: true });
    }
  });

  it('removes the files of a service\'s earlier process only (results and temporary files)', () => {
    sharedFolderIdentity(dir, 'S');
    for (const name of ['svc1.t1.a.parquet', '.svc1.t2.b.parquet.123-abcdef012345.tmp', 'svc2.t1.a.parquet', 'svc1x.t.parquet']) writeFileSync(join(dir, name), '');
    removeLeftResults(dir, 'svc1');
    expect(readdirSync(dir).sort()).to.deep.equal([IDENTITY_FILE, 'svc1x.t.parquet', 'svc2.t1.a.parquet']);
    removeLeftResults(join(dir, 'absent'), 'svc1'); // a folder away: nothing to do, no error
  });
});
