// Which addon binary the engine's loader tries, in which order: PESIM_ADDON_PATH alone when set;
// else the local builds, then the prebuilt binaries that fit this platform and C library.
import { expect } from 'chai';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { addonCandidates, prebuildCandidates } from '../../src/engine/binding.js';

describe('engine loader: addon candidates', () => {
  const root = mkdtempSync(join(tmpdir(), 'pesim-prebuilds-'));
  const folder = join(root, 'prebuilds', `${process.platform}-${process.arch}`);
  const libc = process.platform === 'linux' ? 'glibc' : undefined;
  before(() => {
    mkdirSync(folder, { recursive: true });
    for (const file of ['pesim.glibc.node', 'pesim.musl.node', 'pesim.node', 'README.txt']) writeFileSync(join(folder, file), '');
    mkdirSync(join(root, 'prebuilds', 'plan9-mips'), { recursive: true });
    writeFileSync(join(root, 'prebuilds', 'plan9-mips', 'pesim.node'), '');
  });

  it('lists the prebuilt binaries of this platform that fit its C library, the most specific first', () => {
    const names = prebuildCandidates(root).map((p) => p.slice(folder.length + 1));
    expect(names).to.deep.equal(libc ? ['pesim.glibc.node', 'pesim.node'] : ['pesim.node']);
  });

  it('tries the local builds before the prebuilt binaries, and PESIM_ADDON_PATH alone when set', () => {
    const saved = process.env.PESIM_ADDON_PATH;
    try {
      delete process.env.PESIM_ADDON_PATH;
      const candidates = addonCandidates(root);
      expect(candidates.slice(0, 2)).to.deep.equal([join(root, 'build', 'Release', 'pesim.node'), join(root, 'build-gyp', 'Release', 'pesim.node')]);
      expect(candidates.slice(2)).to.deep.equal(prebuildCandidates(root));
      process.env.PESIM_ADDON_PATH = '/opt/pesim/custom.node';
      expect(addonCandidates(root)).to.deep.equal(['/opt/pesim/custom.node']);
    } finally {
      if (saved === undefined) delete process.env.PESIM_ADDON_PATH;
      else process.env.PESIM_ADDON_PATH = saved;
    }
  });

  it('has no prebuilt binary for a package without a prebuilds folder', () => {
    expect(prebuildCandidates(mkdtempSync(join(tmpdir(), 'pesim-no-prebuilds-')))).to.deep.equal([]);
  });
});
