#!/usr/bin/env node
// Builds the addon with node-gyp (binding.gyp) into build-gyp/Release/pesim.node, for machines
// without cmake. node-gyp always writes to ./build, which cmake-js owns, so the build runs in a
// temporary copy of the sources.
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const work = mkdtempSync(join(tmpdir(), 'pesim-gyp-'));
try {
  for (const item of ['binding.gyp', 'package.json', 'native']) cpSync(join(root, item), join(work, item), { recursive: true });
  symlinkSync(join(root, 'node_modules'), join(work, 'node_modules'), 'dir');
  const nodeGyp = join(root, 'node_modules', 'node-gyp', 'bin', 'node-gyp.js');
  const nodedir = process.env.npm_config_nodedir || (process.platform === 'win32' ? undefined : '/usr');
  const args = [nodeGyp, 'rebuild', '-j', 'max', ...(nodedir ? [`--nodedir=${nodedir}`] : [])];
  execFileSync(process.execPath, args, { cwd: work, stdio: 'inherit' });
  mkdirSync(join(root, 'build-gyp', 'Release'), { recursive: true });
  cpSync(join(work, 'build', 'Release', 'pesim.node'), join(root, 'build-gyp', 'Release', 'pesim.node'));
  console.log('pesim: node-gyp build written to build-gyp/Release/pesim.node');
} finally {
  rmSync(work, { recursive: true, force: true });
}
