// deckFiles: the file reader of SPICE includes — paths relative to the deck, and with `root` nothing
// outside that folder (by path or through a symbolic link).
import { expect } from 'chai';
import { mkdtempSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deckFiles } from '../../../src/formats/deck-files.js';

describe('deckFiles', () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'pesim-deck-files-'));
    mkdirSync(join(dir, 'models', 'sub'), { recursive: true });
    writeFileSync(join(dir, 'models', 'lib.inc'), 'inside');
    writeFileSync(join(dir, 'outside.inc'), 'outside');
    symlinkSync(join(dir, 'outside.inc'), join(dir, 'models', 'link.inc'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('reads paths relative to the deck', () => {
    const read = deckFiles(join(dir, 'models', 'sub', 'deck.cir'));
    expect(String(read('../lib.inc'))).to.equal('inside');
    expect(String(read('../../outside.inc'))).to.equal('outside');
    expect(read('missing.inc')).to.equal(undefined);
  });

  it('with a root, reads nothing outside it', () => {
    const read = deckFiles(join(dir, 'models', 'sub', 'deck.cir'), { root: join(dir, 'models') });
    expect(String(read('../lib.inc'))).to.equal('inside');
    expect(read('../../outside.inc')).to.equal(undefined);
    expect(read(join(dir, 'outside.inc'))).to.equal(undefined);
    expect(read('../link.inc')).to.equal(undefined);
  });
});
